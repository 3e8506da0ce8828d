"""A client no one on this project wrote drives the live server through registration and sign-in.

The authenticator is soft-webauthn's `SoftWebauthnDevice` (see webauthn_client.py); the server is a running
`passkeys serve` named by PASSKEYS_SERVER_URL and PASSKEYS_API_KEY (see conftest.py).
"""

from __future__ import annotations

from typing import Any

import requests

from conftest import Enrolled, LiveServer, enroll, new_user_id
from webauthn_client import SoftwareClient, b64url, unb64url


def error_of(response: requests.Response, status: int, code: str) -> dict[str, Any]:
    """Checks that `response` is the server's JSON error body with this status and code; returns the error."""
    assert response.status_code == status, f"expected {status} {code}, got {response.status_code}: {response.text}"
    assert response.headers.get("Content-Type", "").startswith("application/json"), response.headers
    body = response.json()
    assert set(body) == {"error"}, body
    error = body["error"]
    assert error["code"] == code, body
    assert isinstance(error["message"], str) and error["message"], body
    assert isinstance(error["retryable"], bool), body
    assert isinstance(error["requestId"], str) and error["requestId"], body
    assert response.headers.get("X-Request-Id") == error["requestId"], response.headers
    return error


def start_sign_in(server: LiveServer, user_id: str | None, action: str = "login") -> tuple[str, str, dict[str, Any]]:
    """Backend creates the session, client fetches the request options: (session id, client token, options)."""
    body: dict[str, Any] = {"action": action}
    if user_id is not None:
        body["userId"] = user_id
    created = server.backend("POST", "/v1/authentications", body)
    assert created.status_code == 201, created.text
    session = created.json()
    session_id, token = session["biometricPasskeySessionId"], session["clientToken"]
    options = server.client("POST", f"/v1/client/authentications/{session_id}/options", token)
    assert options.status_code == 200, options.text
    return session_id, token, options.json()


def complete_sign_in(server: LiveServer, session_id: str, token: str, assertion: dict[str, Any]) -> requests.Response:
    return server.client("POST", f"/v1/client/authentications/{session_id}/complete", token, {"credential": assertion})


def redeem(server: LiveServer, session_id: str, result_token: str) -> requests.Response:
    return server.backend("POST", f"/v1/authentications/{session_id}/redeem", {"resultToken": result_token})


# --------------------------------------------------------------------------------------------------------


def test_health(server: LiveServer) -> None:
    response = server.session.get(server.base_url + "/health", timeout=10)
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_backend_refuses_a_missing_or_wrong_api_key(server: LiveServer) -> None:
    body = {"userId": new_user_id(), "userName": "nobody"}
    error_of(server.backend("POST", "/v1/registrations", body, api_key=""), 401, "UNAUTHENTICATED")
    error_of(server.backend("POST", "/v1/registrations", body, api_key="pk_wrong_" + "x" * 24), 401, "UNAUTHENTICATED")


def test_registration_options_are_webauthn_creation_options(server: LiveServer, enrolled: Enrolled) -> None:
    options = enrolled.creation_options["publicKey"]
    assert options["rp"]["id"] == "localhost"
    assert options["user"]["name"] == enrolled.user_name
    assert options["user"]["displayName"] == "External Client"
    handle = enrolled.user_handle
    assert 1 <= len(handle) <= 64
    assert enrolled.user_id.encode() not in handle  # the handle carries no integrator id
    assert len(unb64url(options["challenge"])) >= 16
    assert {"type": "public-key", "alg": -7} in options["pubKeyCredParams"]
    assert options.get("excludeCredentials", []) == []  # a new user has nothing to exclude
    for text in (options["challenge"], options["user"]["id"]):
        assert "=" not in text and "+" not in text and "/" not in text  # unpadded base64url


def test_registration_stores_the_credential(server: LiveServer, enrolled: Enrolled) -> None:
    credential = enrolled.credential
    assert credential["credentialId"] == enrolled.registration["id"]
    assert credential["userId"] == enrolled.user_id
    assert credential["status"] == "active"
    assert credential["attestationFormat"] == "none"
    assert credential["backupEligible"] is False
    assert credential["kind"] == "device-bound"
    assert isinstance(credential["name"], str) and credential["name"]


def test_second_registration_excludes_the_first_credential(server: LiveServer, enrolled: Enrolled) -> None:
    created = server.backend("POST", "/v1/registrations", {"userId": enrolled.user_id, "userName": enrolled.user_name})
    assert created.status_code == 201, created.text
    attempt = created.json()
    options = server.client(
        "POST", f"/v1/client/registrations/{attempt['registrationAttemptId']}/options", attempt["clientToken"]
    )
    assert options.status_code == 200, options.text
    public_key = options.json()["publicKey"]
    assert [d["id"] for d in public_key["excludeCredentials"]] == [enrolled.registration["id"]]
    assert public_key["user"]["id"] == enrolled.creation_options["publicKey"]["user"]["id"]  # same user handle


def test_sign_in_with_username_and_redeem_once(server: LiveServer, enrolled: Enrolled) -> None:
    session_id, token, options = start_sign_in(server, enrolled.user_id, action="login")
    public_key = options["publicKey"]
    assert public_key["rpId"] == "localhost"
    assert [d["id"] for d in public_key["allowCredentials"]] == [enrolled.registration["id"]]

    assertion = enrolled.authenticator.get(options)
    completed = complete_sign_in(server, session_id, token, assertion)
    assert completed.status_code == 200, completed.text
    result_token = completed.json()["resultToken"]

    first = redeem(server, session_id, result_token)
    assert first.status_code == 200, first.text
    result = first.json()
    assert result["userId"] == enrolled.user_id
    assert result["credentialId"] == enrolled.registration["id"]
    assert result["userVerified"] is False  # soft-webauthn sets user presence only
    assert result["backupEligible"] is False and result["backupState"] is False
    assert result["mode"] == "standard"
    assert result["action"] == "login"

    error_of(redeem(server, session_id, result_token), 409, "RESULT_ALREADY_REDEEMED")


def test_a_completed_assertion_cannot_be_replayed(server: LiveServer, enrolled: Enrolled) -> None:
    session_id, token, options = start_sign_in(server, enrolled.user_id)
    assertion = enrolled.authenticator.get(options)
    first = complete_sign_in(server, session_id, token, assertion)
    assert first.status_code == 200, first.text
    error_of(complete_sign_in(server, session_id, token, assertion), 409, "CHALLENGE_CONSUMED")


def test_sign_in_without_username_uses_the_user_handle(server: LiveServer, enrolled: Enrolled) -> None:
    session_id, token, options = start_sign_in(server, None, action="discoverable")
    assert options["publicKey"].get("allowCredentials", []) == []

    assertion = enrolled.authenticator.get(options)
    assert unb64url(assertion["response"]["userHandle"]) == enrolled.user_handle
    completed = complete_sign_in(server, session_id, token, assertion)
    assert completed.status_code == 200, completed.text

    redeemed = redeem(server, session_id, completed.json()["resultToken"])
    assert redeemed.status_code == 200, redeemed.text
    assert redeemed.json()["userId"] == enrolled.user_id
    assert redeemed.json()["credentialId"] == enrolled.registration["id"]
    assert redeemed.json()["action"] == "discoverable"


def test_tampered_signature_is_rejected(server: LiveServer, enrolled: Enrolled) -> None:
    session_id, token, options = start_sign_in(server, enrolled.user_id)
    assertion = enrolled.authenticator.get(options)
    signature = bytearray(unb64url(assertion["response"]["signature"]))
    signature[-1] ^= 0x01  # the last byte of S: the DER stays well-formed, the signature is wrong
    assertion["response"]["signature"] = b64url(bytes(signature))

    error = error_of(complete_sign_in(server, session_id, token, assertion), 400, "ASSERTION_INVALID")
    assert error["retryable"] is False

    # Nothing was issued: the session has no result to redeem.
    refused = redeem(server, session_id, "pkr_" + "A" * 43)
    assert refused.status_code in (403, 409), refused.text
    assert refused.json()["error"]["code"] != "RESULT_ALREADY_REDEEMED"


def test_assertion_from_an_unknown_authenticator_is_rejected(server: LiveServer, enrolled: Enrolled) -> None:
    # A key pair the server never saw, claiming the enrolled user's handle (soft-webauthn's `cred_init`).
    stranger = SoftwareClient(server.origin)
    stranger.device.cred_init("localhost", enrolled.user_handle)
    session_id, token, options = start_sign_in(server, None)
    assertion = stranger.get(options)
    error_of(complete_sign_in(server, session_id, token, assertion), 404, "CREDENTIAL_NOT_FOUND")


def test_response_from_another_origin_is_rejected(server: LiveServer, enrolled: Enrolled) -> None:
    session_id, token, options = start_sign_in(server, enrolled.user_id)
    phishing = SoftwareClient("http://evil.example")
    phishing.device = enrolled.authenticator.device  # the same authenticator, used from another site
    error_of(complete_sign_in(server, session_id, token, phishing.get(options)), 400, "ORIGIN_NOT_ALLOWED")


def test_malformed_bodies_are_invalid_requests(server: LiveServer, enrolled: Enrolled) -> None:
    session_id, token, _ = start_sign_in(server, enrolled.user_id)
    path = f"/v1/client/authentications/{session_id}/complete"
    headers = {"Authorization": f"Bearer {token}", "Origin": server.origin, "Content-Type": "application/json"}
    not_json = server.session.post(server.base_url + path, data=b"{not json", headers=headers, timeout=10)
    error_of(not_json, 400, "INVALID_REQUEST")
    error_of(server.client("POST", path, token, []), 400, "INVALID_REQUEST")
    error_of(server.client("POST", path, token, {"credential": {"id": 5}}), 400, "INVALID_REQUEST")


def test_signature_counter_regression_is_reported(server: LiveServer) -> None:
    user = enroll(server, new_user_id(), "counter@example.test")
    for _ in range(2):
        session_id, token, options = start_sign_in(server, user.user_id)
        assert complete_sign_in(server, session_id, token, user.authenticator.get(options)).status_code == 200
    user.authenticator.device.sign_count = 0  # a copy of the key that lags behind: the next counter is 1
    session_id, token, options = start_sign_in(server, user.user_id)
    error_of(complete_sign_in(server, session_id, token, user.authenticator.get(options)), 400, "CREDENTIAL_CLONE_SUSPECTED")


def test_credential_is_listed_for_the_user(server: LiveServer, enrolled: Enrolled) -> None:
    listed = server.backend("GET", f"/v1/users/{enrolled.user_id}/credentials")
    assert listed.status_code == 200, listed.text
    body = listed.json()
    assert body["userId"] == enrolled.user_id
    ids = [c["credentialId"] for c in body["credentials"]]
    assert ids == [enrolled.registration["id"]]
    (credential,) = body["credentials"]
    assert credential["status"] == "active"
    assert credential["name"] == enrolled.credential["name"]

    error_of(server.backend("GET", f"/v1/users/{new_user_id()}/credentials"), 404, "NOT_FOUND")
