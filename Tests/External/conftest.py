"""Fixtures for the external-client tests: the live server they drive, and a user enrolled on it.

The server is started by someone else (Tests/External/run.sh, or by hand); these tests read where it is:

- PASSKEYS_SERVER_URL  its base URL, such as http://localhost:18080 (required)
- PASSKEYS_API_KEY     a backend API key it accepts (required)
- PASSKEYS_ORIGIN      the web origin the client claims (default: the base URL, with 127.0.0.1 shown as
                       localhost, as `passkeys serve` allows http://localhost:PORT by default)
"""

from __future__ import annotations

import os
import uuid
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests

from webauthn_client import SoftwareClient, unb64url

TIMEOUT = 10  # seconds, for every request


@dataclass
class LiveServer:
    base_url: str
    api_key: str
    origin: str
    session: requests.Session = field(default_factory=requests.Session)

    def backend(self, method: str, path: str, body: Any = None, api_key: str | None = None) -> requests.Response:
        """A backend API call, with the API key (or the one given)."""
        key = self.api_key if api_key is None else api_key
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        return self.session.request(method, self.base_url + path, json=body, headers=headers, timeout=TIMEOUT)

    def client(self, method: str, path: str, token: str, body: Any = None) -> requests.Response:
        """A client API call, with a flow's client token, as the app or browser would make it."""
        headers = {"Authorization": f"Bearer {token}", "Origin": self.origin}
        return self.session.request(method, self.base_url + path, json=body, headers=headers, timeout=TIMEOUT)


def _origin_for(base_url: str) -> str:
    parts = urlsplit(base_url)
    host = "localhost" if parts.hostname in ("127.0.0.1", "::1") else parts.hostname
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}"


@pytest.fixture(scope="session")
def server() -> LiveServer:
    base_url = os.environ.get("PASSKEYS_SERVER_URL", "").rstrip("/")
    api_key = os.environ.get("PASSKEYS_API_KEY", "")
    if not base_url or not api_key:
        pytest.fail(
            "Set PASSKEYS_SERVER_URL and PASSKEYS_API_KEY to a running `passkeys serve` "
            "(Tests/External/run.sh does that).",
            pytrace=False,
        )
    origin = os.environ.get("PASSKEYS_ORIGIN") or _origin_for(base_url)
    live = LiveServer(base_url=base_url, api_key=api_key, origin=origin)
    try:
        live.session.get(base_url + "/health", timeout=TIMEOUT)
    except requests.RequestException as error:
        pytest.fail(f"No server answers at {base_url}: {error}", pytrace=False)
    return live


@dataclass
class Enrolled:
    """A user registered through the whole flow, with the authenticator that holds the passkey."""

    user_id: str
    user_name: str
    authenticator: SoftwareClient
    creation_options: dict[str, Any]
    registration: dict[str, Any]  # the RegistrationResponseJSON sent
    credential: dict[str, Any]  # what the server answered to complete

    @property
    def user_handle(self) -> bytes:
        return unb64url(self.creation_options["publicKey"]["user"]["id"])


def new_user_id() -> str:
    return "ext-" + uuid.uuid4().hex[:16]


def enroll(server: LiveServer, user_id: str, user_name: str) -> Enrolled:
    created = server.backend(
        "POST", "/v1/registrations", {"userId": user_id, "userName": user_name, "displayName": "External Client"}
    )
    assert created.status_code == 201, created.text
    attempt = created.json()
    attempt_id, token = attempt["registrationAttemptId"], attempt["clientToken"]

    options = server.client("POST", f"/v1/client/registrations/{attempt_id}/options", token)
    assert options.status_code == 200, options.text

    authenticator = SoftwareClient(server.origin)
    registration = authenticator.create(options.json())
    completed = server.client(
        "POST", f"/v1/client/registrations/{attempt_id}/complete", token, {"credential": registration}
    )
    assert completed.status_code == 201, completed.text
    return Enrolled(user_id, user_name, authenticator, options.json(), registration, completed.json())


@pytest.fixture(scope="module")
def enrolled(server: LiveServer) -> Enrolled:
    user_id = new_user_id()
    return enroll(server, user_id, f"{user_id}@example.test")
