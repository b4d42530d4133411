"""/healthz answers the state of the database, the cache and the broker."""

import pytest
from celery import Celery
from django.db import OperationalError

from config import health

pytestmark = pytest.mark.django_db


def test_all_services_up_is_200(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "checks": {"database": "ok", "cache": "ok", "broker": "ok"},
        "down": [],
    }
    assert "no-cache" in response["Cache-Control"]


def test_broker_down_is_503_naming_the_broker(client, monkeypatch):
    # Nothing listens on port 1: a real connection attempt that fails. (Celery prefers the
    # environment's CELERY_BROKER_URL to the one it is given.)
    monkeypatch.delenv("CELERY_BROKER_URL", raising=False)
    monkeypatch.setattr(health, "celery_app", Celery(broker="redis://127.0.0.1:1/0"))

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["down"] == ["broker"]
    assert response.json()["checks"]["database"] == "ok"


def test_database_down_is_503_naming_the_database(client, monkeypatch):
    def refuse():
        raise OperationalError("connection refused")

    monkeypatch.setitem(health.CHECKS, "database", refuse)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["status"] == "unavailable"
    assert response.json()["down"] == ["database"]


@pytest.mark.redis
def test_redis_broker_and_cache_are_checked_for_real(client, settings):
    assert settings.CELERY_BROKER_URL.startswith("redis")

    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json()["checks"] == {"database": "ok", "cache": "ok", "broker": "ok"}
