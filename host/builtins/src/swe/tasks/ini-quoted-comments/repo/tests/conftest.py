import pytest

SAMPLE = """\
; sample configuration
[server]
host = 0.0.0.0
port: 8080            ; default port
debug = yes
timeout = 5m
tags = web, api ,, internal

[paths]
root = /srv/app
logs = ${root}/logs
cache = ${server:host}:${server:port}/cache
price = $$5

[text]
description = first line
    second line
"""


@pytest.fixture
def sample():
    return SAMPLE


@pytest.fixture
def write(tmp_path):
    def do(name, text):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return do
