from confkit import apply_env, parse


def test_env_overrides(sample):
    config = parse(sample)
    environ = {"APP__SERVER__PORT": "9090", "APP__NEW__FLAG": "on", "APP__BAD": "x", "OTHER": "1"}
    assert apply_env(config, environ) == 2
    assert config.getint("server", "port") == 9090
    assert config.getbool("new", "flag") is True
