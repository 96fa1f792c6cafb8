"""``geode.eval``: measure a model on envs through an OpenAI-compatible API, from Python.

The same run as ``geode eval`` on the command line (the runner is geode's own, in Rust): each
episode is a chat whose user messages are the env's observations and whose replies are the
actions; the output directory gets ``trajectories.jsonl``, ``summary.json`` and ``report.html``,
and ``resume=True`` continues a stopped run. Returns the summary (``summary.json``'s content)."""

import json
import os
from typing import Any, Dict, Iterable, Optional, Union

from geode import _geode


def eval(  # noqa: A001 - the name users call, as on the command line
    ids: Union[str, Iterable[str]],
    base_url: str,
    model: str,
    *,
    api_key_env: Optional[str] = None,
    episodes: Optional[int] = None,
    samples: int = 1,
    concurrency: int = 64,
    max_turns: int = 32,
    temperature: Optional[float] = None,
    top_p: Optional[float] = None,
    max_tokens: Optional[int] = None,
    seed: Optional[int] = None,
    env_seed: int = 0,
    system: Optional[str] = None,
    config: Optional[Dict[str, Any]] = None,
    wrappers: Union[str, Iterable[str], None] = None,
    success_threshold: float = 1.0,
    out: Union[str, "os.PathLike[str]"] = "geode-eval",
    resume: bool = False,
    stream: bool = False,
    timeout: float = 120.0,
    max_retries: int = 8,
    backoff: float = 0.5,
    ca_cert: Optional[str] = None,
    http2: bool = False,
    logprobs: bool = False,
    return_token_ids: bool = False,
    fuel: Optional[int] = None,
    seat: Optional[str] = None,
    opponent: str = "random",
    user_model: Optional[str] = None,
    user_base_url: Optional[str] = None,
    user_temperature: Optional[float] = None,
    user_api_key_env: Optional[str] = None,
) -> Dict[str, Any]:
    """Runs ``model`` on the env ids (one id or several) and returns the run's summary: per env
    and overall, episodes, mean reward and success rate with 95% bootstrap intervals, pass@k for
    and pass^k (all of k tries pass) for every k up to ``samples``, turns, errors by kind, tokens and latencies. ``episodes`` is the
    number of tasks per env (seeds ``env_seed..``, or rows of a dataset env: all of them when
    None). ``wrappers`` takes GEM's names (``"python_tool"``...). In a multi-agent env the model
    plays ``seat`` (default: the first agent) and ``opponent`` plays the others, or
    ``user_model`` (on ``user_base_url``, default ``base_url``) does: the simulated customer of
    ``tau:*`` envs."""
    ids = [ids] if isinstance(ids, str) else list(ids)
    if isinstance(wrappers, str):
        wrappers = [w for w in wrappers.split(",") if w]
    text = _geode.eval_json(
        ids, base_url, model, api_key_env=api_key_env, episodes=episodes, samples=samples,
        concurrency=concurrency, max_turns=max_turns, temperature=temperature, top_p=top_p,
        max_tokens=max_tokens, seed=seed, env_seed=env_seed, system=system,
        config=None if config is None else json.dumps(config), wrappers=list(wrappers or []),
        success_threshold=success_threshold, out=os.fspath(out), resume=resume, stream=stream,
        timeout=timeout, max_retries=max_retries, backoff=backoff, ca_cert=ca_cert, http2=http2,
        logprobs=logprobs, return_token_ids=return_token_ids, fuel=fuel, seat=seat,
        opponent=opponent, user_model=user_model, user_base_url=user_base_url,
        user_temperature=user_temperature, user_api_key_env=user_api_key_env,
    )
    return json.loads(text)
