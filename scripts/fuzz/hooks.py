"""schemathesis hooks for scripts/fuzz-contract: sign-ins that last, and writes that land.

- Requests are signed in as the run's admin (schemathesis signs in again after a 401); POST
  /logout, which ends the session it is sent with, gets a session of its own each time.
- The run's own admin is never the user changed or deleted (that would end its session); such
  a request goes to a second account made for the purpose.
- Half of the writes to an announcement that carry If-Match get the announcement's current
  ETag, so that they succeed (a generated tag is always stale: 412) and the write paths run.
- GET /metrics gets the metrics token instead of the admin's session token.
- Some sign-ins use the second account's real credentials, so that a login also succeeds.
- Half of the uploads to POST /imports/wordpress become a real WordPress export with the
  generated text as a post's title and body, so that imports also succeed (the generated XML
  is almost never a WordPress export: 400).
"""

import os
import random
from xml.sax.saxutils import escape

import requests
import schemathesis

BASE = os.environ["FUZZ_BASE"]
USER = os.environ["FUZZ_USER"]
PASSWORD = os.environ["FUZZ_PASSWORD"]
ADMIN_ID = int(os.environ["FUZZ_ADMIN_ID"])
SPARE_ID = int(os.environ["FUZZ_SPARE_ID"])
SPARE_USER = os.environ["FUZZ_SPARE_USER"]
SPARE_PASSWORD = os.environ["FUZZ_SPARE_PASSWORD"]
METRICS_TOKEN = os.environ["FUZZ_METRICS_TOKEN"]


def fresh_token():
    answer = requests.post(BASE + "/login", json={"username": USER, "password": PASSWORD}, timeout=30)
    answer.raise_for_status()
    return answer.json()["token"]


# A session of the hooks' own, for reading ETags; nothing the run does ends it.
HOOK_TOKEN = fresh_token()


def current_etag(announcement_id):
    answer = requests.get(
        f"{BASE}/announcements/{announcement_id}", headers={"Authorization": "Bearer " + HOOK_TOKEN}, timeout=30
    )
    return answer.headers.get("ETag") if answer.status_code == 200 else None


class BearerToken:
    """Sets `Authorization: Bearer <what get() answers>`."""

    def set(self, case, data, ctx):
        case.headers = case.headers or {}
        case.headers["Authorization"] = "Bearer " + data


@schemathesis.auth().skip_for(path=["/logout", "/metrics"])
class AdminSession(BearerToken):
    """The run's admin; a 401 (its session ended after all) makes schemathesis sign in again."""

    def get(self, case, ctx):
        return fresh_token()


@schemathesis.auth(refresh_interval=None).apply_to(path="/logout")
class SessionToEnd(BearerToken):
    """POST /logout ends the session it is sent with: a session of its own each time."""

    def get(self, case, ctx):
        return fresh_token()


@schemathesis.auth().apply_to(path="/metrics")
class MetricsToken(BearerToken):
    def get(self, case, ctx):
        return METRICS_TOKEN


def wordpress_export(text):
    """A WXR 1.2 export of one published post whose title and body are `text`."""
    text = escape(str(text)).replace("]]>", "]]&gt;")
    post_id = random.randint(1, 50)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<rss version="2.0" xmlns:wp="http://wordpress.org/export/1.2/" xmlns:content="http://purl.org/rss/1.0/modules/content/">'
        "<channel><wp:wxr_version>1.2</wp:wxr_version><wp:base_blog_url>https://fuzz.example</wp:base_blog_url>"
        f"<item><title>{text}</title><content:encoded>{text}</content:encoded><wp:post_id>{post_id}</wp:post_id>"
        "<wp:status>publish</wp:status><wp:post_type>post</wp:post_type></item></channel></rss>"
    )


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    headers = case.headers or {}
    path = case.operation.path
    method = case.method.upper()
    if path == "/login" and isinstance(case.body, dict) and random.random() < 0.3:
        case.body = {**case.body, "username": SPARE_USER, "password": SPARE_PASSWORD}
    elif path == "/imports/wordpress" and random.random() < 0.5:
        case.body = wordpress_export(case.body)
    elif path == "/users/{id}" and method in ("PATCH", "DELETE") and case.path_parameters:
        if str(case.path_parameters.get("id")) == str(ADMIN_ID):
            case.path_parameters["id"] = SPARE_ID
    elif path == "/announcements/{id}" and method in ("PUT", "PATCH", "DELETE") and "If-Match" in headers:
        if case.path_parameters and random.random() < 0.5:
            tag = current_etag(case.path_parameters.get("id"))
            if tag:
                headers["If-Match"] = tag
    case.headers = headers
