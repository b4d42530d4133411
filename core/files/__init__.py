"""Files: the storage staff actions write through, and the CSV files we write and read back."""
