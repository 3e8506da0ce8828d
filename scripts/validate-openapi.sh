#!/usr/bin/env bash
# Validates docs/openapi.yaml against the OpenAPI specification (the version the document declares, 3.1) with
# openapi-spec-validator, installing it with pip first when it is missing. Exits non-zero when the document is
# invalid or cannot be checked. Runs unattended (CI): no prompts, no terminal needed.
set -euo pipefail
cd "$(dirname "$0")/.."

document=docs/openapi.yaml
[ -f "$document" ] || { echo "$document is missing." >&2; exit 1; }

python=""
for candidate in python3 python; do
    if command -v "$candidate" >/dev/null 2>&1; then python=$candidate; break; fi
done
[ -n "$python" ] || { echo "Python 3 is not on PATH: install it first." >&2; exit 1; }

export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1
if ! "$python" -c "import openapi_spec_validator" >/dev/null 2>&1; then
    echo "Installing openapi-spec-validator with pip…" >&2
    if ! "$python" -m pip install --quiet openapi-spec-validator; then
        # A Python that refuses global installs (PEP 668): use a virtual environment in the build folder.
        venv=.build/openapi-validator-venv
        [ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
        python=$venv/bin/python
        "$python" -c "import openapi_spec_validator" >/dev/null 2>&1 \
            || "$python" -m pip install --quiet openapi-spec-validator
    fi
fi

# The validator's command line prints "<file>: OK" or the errors, and exits non-zero on errors.
"$python" -m openapi_spec_validator "$document"
