"""Webhook deliveries of a live server, verified by an implementation no one on this project wrote.

`passkeys serve` (started by run.sh) posts every event to a receiver on PASSKEYS_WEBHOOK_PORT, signed with
PASSKEYS_WEBHOOK_SECRET and, as an endpoint whose secret is being rotated, PASSKEYS_WEBHOOK_PREVIOUS_SECRET; the
receiver here checks each request with the Standard Webhooks reference library for Python (`standardwebhooks` from
PyPI) once per secret — a receiver on either side of the rotation must accept it — before it answers 204.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Iterator

import pytest
import yaml
from jsonschema import Draft202012Validator
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from conftest import LiveServer, enroll, new_user_id


class Receiver:
    """Records every delivery: its headers, its body, and whether the reference library accepted its signature."""

    def __init__(self, secrets: list[str]) -> None:
        self.webhooks = [Webhook(secret) for secret in secrets]
        self.lock = threading.Lock()
        self.deliveries: list[dict[str, Any]] = []

    def received(self, headers: dict[str, str], body: bytes) -> bool:
        try:
            payloads = [webhook.verify(body, headers) for webhook in self.webhooks]
            payload, verified = payloads[0], True
        except WebhookVerificationError:
            payload, verified = json.loads(body), False
        with self.lock:
            self.deliveries.append({"headers": headers, "payload": payload, "verified": verified})
        return verified

    def events_of(self, user_id: str) -> list[dict[str, Any]]:
        with self.lock:
            return [d for d in self.deliveries if d["payload"].get("data", {}).get("userId") == user_id]


@pytest.fixture(scope="module")
def receiver() -> Iterator[Receiver]:
    port, secret = os.environ.get("PASSKEYS_WEBHOOK_PORT"), os.environ.get("PASSKEYS_WEBHOOK_SECRET")
    if not port or not secret:
        pytest.skip("PASSKEYS_WEBHOOK_PORT and PASSKEYS_WEBHOOK_SECRET name no receiver (run.sh sets them)")
    previous = os.environ.get("PASSKEYS_WEBHOOK_PREVIOUS_SECRET")
    receiver = Receiver([secret] + ([previous] if previous else []))

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (the name http.server calls)
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            verified = receiver.received({k.lower(): v for k, v in self.headers.items()}, body)
            self.send_response(204 if verified else 400)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", int(port)), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield receiver
    server.shutdown()


def documented_webhook() -> tuple[Draft202012Validator, dict[str, str]]:
    """The event schema and the header patterns that docs/openapi.yaml's `webhooks` section documents."""
    path = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "openapi.yaml")
    with open(path, encoding="utf-8") as file:
        document = yaml.safe_load(file)
    text = json.dumps(document["components"]["schemas"]).replace("#/components/schemas/", "#/$defs/")
    schema = {"$defs": json.loads(text), "$ref": "#/$defs/WebhookEvent"}
    operation = document["webhooks"]["passkeysEvent"]["post"]
    patterns = {p["name"]: p["schema"]["pattern"] for p in operation["parameters"] if p["in"] == "header"}
    return Draft202012Validator(schema), patterns


def wait_for(receiver: Receiver, user_id: str, types: set[str], seconds: float = 30) -> list[dict[str, Any]]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        events = receiver.events_of(user_id)
        if types <= {e["payload"]["type"] for e in events}:
            return events
        time.sleep(0.1)
    return receiver.events_of(user_id)


def test_every_delivery_verifies_with_the_reference_library(server: LiveServer, receiver: Receiver) -> None:
    user_id = new_user_id()
    enrolled = enroll(server, user_id, f"{user_id}@example.test")
    credential_id = enrolled.registration["id"]

    created = server.backend("POST", "/v1/authentications", {"userId": user_id})
    assert created.status_code == 201, created.text
    session = created.json()
    session_id, token = session["biometricPasskeySessionId"], session["clientToken"]
    options = server.client("POST", f"/v1/client/authentications/{session_id}/options", token)
    assert options.status_code == 200, options.text
    completed = server.client(
        "POST",
        f"/v1/client/authentications/{session_id}/complete",
        token,
        {"credential": enrolled.authenticator.get(options.json())},
    )
    assert completed.status_code == 200, completed.text
    renamed = server.backend("PATCH", f"/v1/credentials/{credential_id}", {"name": "Python key"})
    assert renamed.status_code == 200, renamed.text
    revoked = server.backend("DELETE", f"/v1/credentials/{credential_id}")
    assert revoked.status_code == 204, revoked.text
    deleted = server.backend("DELETE", f"/v1/users/{user_id}")
    assert deleted.status_code == 204, deleted.text

    types = {"passkey.registered", "sign_in.completed", "passkey.renamed", "passkey.revoked", "user.deleted"}
    events = wait_for(receiver, user_id, types)
    assert {e["payload"]["type"] for e in events} == types, events
    for event in events:
        assert event["verified"], event
        headers, payload = event["headers"], event["payload"]
        assert headers["webhook-id"].startswith("msg_")
        signatures = headers["webhook-signature"].split(" ")
        assert len(signatures) == len(receiver.webhooks), signatures
        assert all(signature.startswith("v1,") for signature in signatures), signatures
        assert set(payload) == {"type", "timestamp", "data"}
        assert payload["data"]["userId"] == user_id
        if payload["type"] != "user.deleted":
            assert payload["data"]["credentialId"] == credential_id
        # Never a secret: the ceremony's tokens and challenge appear in no event.
        text = json.dumps(payload)
        for secret in (token, completed.json()["resultToken"], options.json()["publicKey"]["challenge"]):
            assert secret not in text
    assert len({e["headers"]["webhook-id"] for e in events}) == len(events), "each event delivered once"


def test_every_delivery_is_what_the_openapi_document_says(receiver: Receiver) -> None:
    """Every delivery the other tests caused (events of five types at least) against docs/openapi.yaml's `webhooks`:
    the body against `WebhookEvent` (with the members each type requires), the headers against their patterns."""
    validator, patterns = documented_webhook()
    with receiver.lock:
        deliveries = list(receiver.deliveries)
    assert len({d["payload"]["type"] for d in deliveries}) >= 5, deliveries
    for delivery in deliveries:
        errors = [error.message for error in validator.iter_errors(delivery["payload"])]
        assert not errors, (delivery["payload"], errors)
        for name, pattern in patterns.items():
            assert re.fullmatch(pattern, delivery["headers"][name]), (name, delivery["headers"][name])
    # The schema refuses what no event is: a delivery's check could fail.
    wrong = dict(deliveries[0]["payload"], type="passkey.renamed", data={"userId": "u"})
    assert list(validator.iter_errors(wrong))


def test_a_tampered_delivery_is_refused_by_the_reference_library(receiver: Receiver) -> None:
    with receiver.lock:
        delivered = next((d for d in receiver.deliveries if d["verified"]), None)
    assert delivered is not None, "no verified delivery to tamper with"
    body = json.dumps({**delivered["payload"], "type": "user.deleted"}).encode()
    for webhook in receiver.webhooks:
        with pytest.raises(WebhookVerificationError):
            webhook.verify(body, delivered["headers"])
