"""The adapter in webauthn_client.py, checked against a second relying party no one here wrote.

py_webauthn makes the options and verifies the answers, so when a live-server test fails, these tell whether
the client side (soft-webauthn plus our reshaping) or the server is at fault. They need no server.
"""

from __future__ import annotations

import json

import pytest
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers.exceptions import InvalidAuthenticationResponse
from webauthn.helpers.structs import PublicKeyCredentialDescriptor

from webauthn_client import SoftwareClient, b64url, unb64url

RP_ID = "localhost"
ORIGIN = "http://localhost:18080"


def as_server_sends(options) -> dict:
    """`{"publicKey": …}` as this project's server answers an options request."""
    return {"publicKey": json.loads(options_to_json(options))}


@pytest.fixture()
def registered():
    client = SoftwareClient(ORIGIN)
    options = generate_registration_options(rp_id=RP_ID, rp_name="py_webauthn", user_name="alice", user_id=b"\x01" * 32)
    response = client.create(as_server_sends(options))
    verified = verify_registration_response(
        credential=response, expected_challenge=options.challenge, expected_rp_id=RP_ID, expected_origin=ORIGIN
    )
    return client, response, verified


def test_registration_response_verifies(registered) -> None:
    _, response, verified = registered
    assert verified.credential_id == unb64url(response["id"])
    assert verified.fmt == "none"
    assert set(response) == {"id", "rawId", "type", "response", "clientExtensionResults"}
    assert set(response["response"]) == {"clientDataJSON", "attestationObject"}
    for text in (response["id"], *response["response"].values()):
        assert "=" not in text and "+" not in text and "/" not in text


def test_authentication_response_verifies_and_carries_the_user_handle(registered) -> None:
    client, registration, verified = registered
    options = generate_authentication_options(
        rp_id=RP_ID, allow_credentials=[PublicKeyCredentialDescriptor(id=verified.credential_id)]
    )
    response = client.get(as_server_sends(options))
    assert unb64url(response["response"]["userHandle"]) == b"\x01" * 32
    result = verify_authentication_response(
        credential=response,
        expected_challenge=options.challenge,
        expected_rp_id=RP_ID,
        expected_origin=ORIGIN,
        credential_public_key=verified.credential_public_key,
        credential_current_sign_count=verified.sign_count,
    )
    assert result.new_sign_count == 1

    signature = bytearray(unb64url(response["response"]["signature"]))
    signature[-1] ^= 0x01
    response["response"]["signature"] = b64url(bytes(signature))
    with pytest.raises(InvalidAuthenticationResponse):
        verify_authentication_response(
            credential=response,
            expected_challenge=options.challenge,
            expected_rp_id=RP_ID,
            expected_origin=ORIGIN,
            credential_public_key=verified.credential_public_key,
            credential_current_sign_count=verified.sign_count,
        )
