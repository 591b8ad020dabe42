"""Production runs several gunicorn workers: login attempts must be counted in shared storage
(Redis), not in each process's memory, or the limit multiplies by the number of workers."""

import uuid

import redis

from portal.extensions import limiter


def test_login_attempts_are_counted_in_redis_when_configured(make_app) -> None:
    prefix = f"ccz-test-{uuid.uuid4().hex[:8]}"
    app = make_app(RATELIMIT_STORAGE_URI="redis://127.0.0.1:6379/14", RATELIMIT_KEY_PREFIX=prefix)
    store = redis.Redis(host="127.0.0.1", port=6379, db=14)
    try:
        form = {"email": "x@example.com", "password": "nope12345"}
        for _ in range(10):
            app.test_client().post("/conta/entrar", data=form)
        assert app.test_client().post("/conta/entrar", data=form).status_code == 429
        keys = store.keys(f"*{prefix}*")
        assert keys, "the counter should live in Redis, visible to every worker"
    finally:
        with app.app_context():
            limiter.reset()
        for key in store.keys(f"*{prefix}*"):
            store.delete(key)
