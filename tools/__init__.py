"""Scripts that work on the repository (the docs' screenshots); not part of the product."""
