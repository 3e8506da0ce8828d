"""Token sessions checked by a JWT library no one on this project wrote: PyJWT verifies the access token a redemption
issues against the live server's `/.well-known/jwks.json` (fetched by `jwt.PyJWKClient`), and two threads race to
refresh one refresh token, of which exactly one may win while the session ends revoked.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import jwt
import requests

from conftest import Enrolled, LiveServer
from test_live_server import complete_sign_in, error_of, start_sign_in

TIMEOUT = 10


def signed_in_session(server: LiveServer, enrolled: Enrolled) -> dict[str, Any]:
    """A whole sign-in of the enrolled user, redeemed with `issueSession`: the answer's session."""
    session_id, token, options = start_sign_in(server, enrolled.user_id)
    completed = complete_sign_in(server, session_id, token, enrolled.authenticator.get(options))
    assert completed.status_code == 200, completed.text
    redeemed = server.backend(
        "POST",
        f"/v1/authentications/{session_id}/redeem",
        {"resultToken": completed.json()["resultToken"], "issueSession": True},
    )
    assert redeemed.status_code == 200, redeemed.text
    session = redeemed.json()["session"]
    assert session["tokenType"] == "Bearer"
    assert session["refreshToken"].startswith("pks_")
    return session


def refresh(server: LiveServer, refresh_token: str) -> requests.Response:
    # A fresh connection per call, so that racing threads do not share one.
    return requests.post(
        server.base_url + "/v1/sessions/refresh", json={"refreshToken": refresh_token}, timeout=TIMEOUT
    )


def verified_claims(server: LiveServer, access_token: str) -> dict[str, Any]:
    keys = jwt.PyJWKClient(server.base_url + "/.well-known/jwks.json", cache_keys=False)
    signing_key = keys.get_signing_key_from_jwt(access_token)
    return jwt.decode(
        access_token,
        signing_key.key,
        algorithms=["ES256"],
        audience="localhost",
        issuer=server.origin,
        options={"require": ["iss", "sub", "aud", "iat", "exp", "jti", "client_id", "auth_time"]},
    )


def test_the_access_token_verifies_against_the_published_keys(server: LiveServer, enrolled: Enrolled) -> None:
    session = signed_in_session(server, enrolled)
    header = jwt.get_unverified_header(session["accessToken"])
    assert header["alg"] == "ES256" and header["typ"] == "at+jwt", header

    claims = verified_claims(server, session["accessToken"])
    assert claims["sub"] == enrolled.user_id
    assert claims["client_id"] == "localhost", claims
    assert claims["exp"] - claims["iat"] == session["expiresIn"]
    assert abs(claims["iat"] - time.time()) < 300
    assert claims["auth_time"] <= claims["iat"]
    # soft-webauthn proves presence only, with a device-bound key: no user verification, so no "mfa".
    assert claims["amr"] == ["hwk", "user"], claims
    assert claims["acr"] == "passkey", claims
    assert claims["sid"].startswith("sf_")
    assert "txn" not in claims

    published = requests.get(server.base_url + "/.well-known/jwks.json", timeout=TIMEOUT)
    assert published.headers["Content-Type"] == "application/jwk-set+json"
    assert "max-age" in published.headers["Cache-Control"]
    kids = [key["kid"] for key in published.json()["keys"]]
    assert header["kid"] in kids

    # A token whose payload was changed no longer verifies.
    head, payload, signature = session["accessToken"].split(".")
    forged = ".".join([head, payload[:-2] + ("AA" if payload[-2:] != "AA" else "BB"), signature])
    try:
        verified_claims(server, forged)
    except jwt.InvalidTokenError:
        pass
    else:
        raise AssertionError("a forged token verified")


def test_refresh_rotates_and_a_reused_token_revokes_the_session(server: LiveServer, enrolled: Enrolled) -> None:
    first = signed_in_session(server, enrolled)
    second = refresh(server, first["refreshToken"])
    assert second.status_code == 200, second.text
    rotated = second.json()
    assert rotated["refreshToken"] != first["refreshToken"]
    assert verified_claims(server, rotated["accessToken"])["sid"] == verified_claims(server, first["accessToken"])["sid"]

    error_of(refresh(server, first["refreshToken"]), 401, "REFRESH_TOKEN_REUSED")
    error_of(refresh(server, rotated["refreshToken"]), 401, "SESSION_REVOKED")


def test_two_racing_refreshes_have_one_winner_and_revoke_the_session(server: LiveServer, enrolled: Enrolled) -> None:
    session = signed_in_session(server, enrolled)
    start = threading.Barrier(2)
    answers: list[requests.Response] = []
    lock = threading.Lock()

    def race() -> None:
        start.wait(timeout=TIMEOUT)
        answer = refresh(server, session["refreshToken"])
        with lock:
            answers.append(answer)

    threads = [threading.Thread(target=race) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=2 * TIMEOUT)
    assert len(answers) == 2, answers

    winners = [answer for answer in answers if answer.status_code == 200]
    assert len(winners) == 1, [answer.text for answer in answers]
    loser = next(answer for answer in answers if answer.status_code != 200)
    error_of(loser, 401, "REFRESH_TOKEN_REUSED")
    error_of(refresh(server, winners[0].json()["refreshToken"]), 401, "SESSION_REVOKED")


def test_revoke_is_idempotent(server: LiveServer, enrolled: Enrolled) -> None:
    session = signed_in_session(server, enrolled)
    for _ in range(2):
        answer = requests.post(
            server.base_url + "/v1/sessions/revoke", json={"refreshToken": session["refreshToken"]}, timeout=TIMEOUT
        )
        assert answer.status_code == 200, answer.text
        assert answer.json() == {"revoked": True}
    error_of(refresh(server, session["refreshToken"]), 401, "SESSION_REVOKED")
