from ttlstore import SessionManager


def test_login_and_lookup(clock):
    manager = SessionManager(ttl=60, clock=clock)
    session = manager.login("ada")
    clock.advance(30)
    assert manager.lookup(session.id) == session
    assert manager.lookup("nope") is None


def test_logout(clock):
    manager = SessionManager(ttl=60, clock=clock)
    session = manager.login("ada")
    manager.logout(session.id)
    assert manager.lookup(session.id) is None
    assert manager.active() == 0


def test_session_ids_are_unique(clock):
    manager = SessionManager(ttl=60, clock=clock)
    ids = {manager.login("ada").id for _ in range(50)}
    assert len(ids) == 50
