"""The worked signing example of docs/integration/signing.md: its values are what the product computes."""

import base64
import contextlib
import datetime
import io
import re
from pathlib import Path

from standardwebhooks import Webhook

from bookings.api.authentication import signature_valid

PAGE = Path(__file__).resolve().parents[2] / "docs" / "integration" / "signing.md"


def _example():
    """The inputs and signatures the page's worked example states."""
    text = PAGE.read_text(encoding="utf-8")
    names = r"secret|`webhook-id`|`webhook-timestamp`|body|`webhook-signature`"
    rows = dict(re.findall(rf"^\| ({names}) \| `([^`]*)`", text, re.M))
    empty = re.search(r"empty body \(a GET\) sign as\s+`(v1,[^`]+)`", text)
    assert len(rows) == 5, f"the worked example's table lost a row: {sorted(rows)}"
    assert empty, "the worked example lost the empty body's signature"
    return {
        "secret": rows["secret"],
        "webhook_id": rows["`webhook-id`"],
        "timestamp": int(rows["`webhook-timestamp`"]),
        "body": rows["body"],
        "signature": rows["`webhook-signature`"],
        "empty_signature": empty.group(1),
        "text": text,
    }


def test_the_pages_signatures_are_the_ones_the_product_computes_and_accepts():
    example = _example()
    signer = Webhook(example["secret"])
    when = datetime.datetime.fromtimestamp(example["timestamp"], datetime.UTC)
    for body, stated in ((example["body"], example["signature"]), ("", example["empty_signature"])):
        assert signer.sign(example["webhook_id"], when, body) == stated
        headers = {
            "webhook-id": example["webhook_id"],
            "webhook-timestamp": str(example["timestamp"]),
            "webhook-signature": stated,
        }
        assert signature_valid(body.encode(), headers, secrets=[example["secret"]])


def test_the_pages_key_body_and_python_snippet_agree_with_the_example():
    example = _example()
    key = base64.b64decode(example["secret"].removeprefix("whsec_")).decode()
    assert f"`{key}`" in example["text"]
    assert f"key:{key}" in example["text"]
    assert f"({len(example['body'].encode())} bytes" in example["text"]
    snippet = re.search(r"```python\n(.*?)```", example["text"], re.S).group(1)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(snippet, {})  # noqa: S102 (the page's own example, run as a reader would)
    assert printed.getvalue().strip() == example["signature"]
    # The openssl line prints the signature without its "v1," prefix.
    assert f"# {example['signature'].removeprefix('v1,')}" in example["text"]
