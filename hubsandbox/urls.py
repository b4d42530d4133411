"""URLs of the hub sandbox, mounted at /sandbox/ when HUB_SANDBOX_ENABLED is set."""

app_name = "hubsandbox"
urlpatterns = []
