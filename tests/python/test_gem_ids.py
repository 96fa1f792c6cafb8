"""Which of GEM's ids geode provides. `gem_ids.json` lists every id GEM's current registry has:
`sorted(gem.envs.registration.ENV_REGISTRY)` imported from axon-rl/gem at 4069f2f (its latest
commit when recorded; gem-llm 0.1.0 lacks the WikiGame and WebShop ids). geode must make, reset
and step each of them but the ones named below with the reason, and that list must not grow
silently."""

import importlib.util
import json
from pathlib import Path

import pytest

GEM_IDS = json.loads((Path(__file__).with_name("gem_ids.json")).read_text())

_WEBSHOP = (
    "WebShop serves 1.18M scraped products through a Flask site searched with pyserini (a Lucene "
    "index built by Java 11) plus spaCy and faiss, after GEM's setup.sh downloads and indexes the "
    "data: an external service, not a sandboxed env"
)
#: GEM ids geode does not provide, with the reason.
NOT_PROVIDED = {
    **{f"webshop:{split}-{mode}": _WEBSHOP for split in ("train", "test") for mode in ("html", "text", "text_rich")},
}
#: GEM ids whose observation is a dict of text and images, as in GEM.
MULTIMODAL = {"math:Geometry3K"}
#: GEM ids that GEM itself cannot make: geode raises what GEM raises.
GEM_CANNOT_MAKE = {
    # GEM registers it with no `datasets` config; ReasoningGym's composite needs at least one.
    "rg:composite": (AssertionError, "Must specify at least one dataset"),
}
HAS_RG = importlib.util.find_spec("reasoning_gym") is not None


def test_gem_ids_is_gems_current_registry():
    assert len(GEM_IDS) == 180 and GEM_IDS == sorted(set(GEM_IDS))
    assert sum(i.startswith("rg:") for i in GEM_IDS) == 104
    assert set(NOT_PROVIDED) <= set(GEM_IDS) and all(NOT_PROVIDED.values())


def test_every_provided_gem_id_makes_resets_and_steps(gem):
    provided = [i for i in GEM_IDS if i not in NOT_PROVIDED]
    assert len(provided) == 174
    for env_id in provided:
        assert env_id in gem.ENV_REGISTRY, env_id
        if env_id.startswith("rg:") and not HAS_RG:  # listed; making it names the extra
            with pytest.raises(gem.MissingExtraError, match=r"geode\[rg\]"):
                gem.make(env_id)
            continue
        if env_id in GEM_CANNOT_MAKE:
            error, words = GEM_CANNOT_MAKE[env_id]
            with pytest.raises(error, match=words):
                gem.make(env_id)
            continue
        env = gem.make(env_id, **({"timeout": 2} if env_id.endswith("CodeContest") else {}))
        obs, info = env.reset(seed=0)
        if env_id in MULTIMODAL:  # GEM's observation: the text and its pictures
            assert set(obs) == {"problem", "images"} and obs["problem"] and obs["images"], env_id
        else:
            assert isinstance(obs, str) and obs, env_id
        assert isinstance(info, dict), env_id
        step = env.step(env.sample_random_action())
        assert len(step) == 5 and isinstance(step[4], dict), env_id
        env.close()


def test_the_gaps_are_exactly_the_named_ones(gem):
    missing = {i for i in GEM_IDS if i not in gem.ENV_REGISTRY}
    assert missing == set(NOT_PROVIDED)
