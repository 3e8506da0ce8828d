"""Schemathesis hooks for Tests/Contract/run.sh (loaded through schemathesis.toml).

Client tokens. The client API takes the flow's client token as `Authorization: Bearer`. The document's links carry
it from `POST /v1/registrations` and `POST /v1/authentications` to the client API (`header.Authorization`), but a
link cannot carry it one step further (options → complete), and schemathesis takes a token that a link set for a
generated one, so its `ignored_auth` check would report the server for accepting it. So the flows' tokens are
recorded as the server hands them out and applied as explicit authentication to calls of that flow: then
`ignored_auth` checks that the same call without the token, or with another, is refused.

Transaction text lines. A step-up's `transaction.text` has at most 20 lines and at most one blank line in a row
(else 400 TRANSACTION_TEXT_INVALID), as the document says in words: its pattern states the characters exactly but
cannot count lines. So the fuzzer is kept from generating texts past those bounds, and that refusal
alone is dropped from the coverage phase's cases.
"""

import threading

import schemathesis

_CREATES = {"POST /v1/registrations": "registrationAttemptId", "POST /v1/authentications": "biometricPasskeySessionId"}
_FLOW_PARAMETERS = ("registrationAttemptId", "biometricPasskeySessionId")
_tokens = {}
_lock = threading.Lock()


@schemathesis.hook
def after_call(context, case, response):
    field = _CREATES.get(case.operation.label)
    if field is None or response.status_code != 201:
        return
    try:
        body = response.json()
    except ValueError:
        return
    if isinstance(body, dict) and isinstance(body.get(field), str) and isinstance(body.get("clientToken"), str):
        with _lock:
            _tokens[body[field]] = body["clientToken"]


@schemathesis.hook
def before_call(context, case, kwargs):
    """Sends the client token of the flow named in the path, when the server created that flow in this run."""
    if not case.operation.path.startswith(("/v1/client/", "/biometric-passkey/")):
        return
    parameters = case.path_parameters or {}
    with _lock:
        token = next((_tokens[parameters[n]] for n in _FLOW_PARAMETERS if parameters.get(n) in _tokens), None)
    if token is None:
        return
    case.headers = case.headers or {}
    case.headers["Authorization"] = f"Bearer {token}"
    # As authentication that schemathesis applies itself: ignored_auth then checks that the call without it, or
    # with another token, is refused (rather than take the token for a generated one).
    case._has_explicit_auth = True


@schemathesis.hook
def filter_body(context, body):
    operation = context.operation
    if operation is None or operation.label != "POST /v1/authentications":
        return True
    return not _transaction_text_past_line_bounds(body)


def _transaction_text_past_line_bounds(body):
    transaction = body.get("transaction") if isinstance(body, dict) else None
    text = transaction.get("text") if isinstance(transaction, dict) else None
    if not isinstance(text, str):
        return False
    lines = text.split("\n")
    blank_run = 0
    for line in lines:
        blank_run = blank_run + 1 if line.strip() == "" else 0
        if blank_run > 1:
            return True
    return len(lines) > 20


@schemathesis.hook
def filter_failure(context, failure, case, response):
    if failure.code != "ST202" or response.status_code != 400:
        return True
    return not (
        case.operation.label == "POST /v1/authentications" and _transaction_text_past_line_bounds(case.body)
    )
