"""GEM's wrapper factory: wrappers by name. Each entry is a ``WrapperFactory``: call it on an
env to wrap it (GEM's way), or pass it (or its name) in ``make_vec(wrappers=...)``, where
native layers run inside the vector env and chat layers are applied to its results."""

import functools
from typing import Any, Callable, Optional

from geode import _geode
from geode.wrappers.episode_tracking_wrapper import EpisodeTrackingWrapper
from geode.wrappers.observation_wrapper import ObservationHistory, ObservationWrapper

NATIVE = "native"
CHAT = "chat"


class WrapperFactory:
    """A named wrapper. ``kind`` is ``"native"`` (a Rust layer: ``concat``,
    ``concat_with_action``, ``episode_tracking``, ``tools``, wrapper plugins by id) or
    ``"chat"`` (an ``ObservationWrapper`` with a tokenizer, applied in Python)."""

    def __init__(self, name: str, kind: str, **options: Any):
        self.name = name
        self.kind = kind
        self.options = options

    def bind(self, **options: Any) -> "WrapperFactory":
        """The same wrapper with more options (like ``functools.partial``)."""
        return WrapperFactory(self.name, self.kind, **{**self.options, **options})

    def native_config(self) -> Optional[dict]:
        """The options passed to the native layer."""
        return dict(self.options) or None

    def history(self) -> ObservationHistory:
        """A fresh per-episode history for a chat layer."""
        return ObservationHistory(**_chat_options(self.name, self.options))

    def __call__(self, env, **options: Any):
        """Wraps ``env``: natively when it is a native env, else with the Python wrapper."""
        if options:
            return self.bind(**options)(env)
        if self.kind == NATIVE and isinstance(env, _geode.Env):
            return env.wrap(self.name, self.native_config())
        if self.kind == CHAT:
            return ObservationWrapper(env, **_chat_options(self.name, self.options))
        if self.name == "episode_tracking":
            return EpisodeTrackingWrapper(env)
        if self.name in TOOL_WRAPPERS:
            return _python_tool_wrapper(env, _geode.wrapper_tools(self.name, self.native_config()))
        if self.name in ("concat", "concat_with_action"):
            return ObservationWrapper(
                env,
                include_action=self.name == "concat_with_action",
                include_chat_template=False,
                max_history_length=self.options.get("max_history_length"),
            )
        raise TypeError(f"wrapper `{self.name}` wraps native geode envs only, not {type(env).__name__}")

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"WrapperFactory({self.name!r}{', ' + opts if opts else ''})"


def _chat_options(name: str, options: dict) -> dict:
    if options.get("tokenizer") is None:
        raise ValueError(f"wrapper `{name}` needs a tokenizer: pass tokenizer=... (any object with apply_chat_template)")
    base = {
        "concat_chat": dict(include_action=True, include_chat_template=True),
        "concat_chat_on_reset": dict(
            include_action=True, include_chat_template=False, apply_chat_template_on_reset=True
        ),
    }[name]
    return {**base, "tokenizer": options["tokenizer"], "max_history_length": options.get("max_history_length")}


def tools(tools: list, tool_reward: float = 0.0, tool_success_reward: float = 0.0,
          tool_execute_error_reward: float = 0.0, max_tool_uses: Optional[int] = 10) -> WrapperFactory:
    """GEM's ``ToolEnvWrapper`` with tools the host runs: ``tools`` lists tool ids (or
    ``[id, config]``), such as ``tool:python`` or a tool plugin's id."""
    return WrapperFactory(
        "tools", NATIVE, tools=list(tools), tool_reward=tool_reward, tool_success_reward=tool_success_reward,
        tool_execute_error_reward=tool_execute_error_reward, max_tool_uses=max_tool_uses,
    )


def _python_tool_wrapper(env, options: dict):
    """The tools layer over an env that only exists in Python: the Python ``ToolEnvWrapper``
    with the same tools."""
    from geode.tools import NativeTool, ToolEnvWrapper

    options = dict(options)
    specs = options.pop("tools", None) or []
    natives = [NativeTool(s) if isinstance(s, str) else NativeTool(s[0], s[1]) for s in specs]
    return ToolEnvWrapper(env, natives, **options)


WRAPPER_FACTORY = {
    # Order matters when stacking: a tool layer first, then an observation layer, then tracking.
    # GEM's tool wrappers: their tools and rewards are resolved by the native parser of wrapper
    # names, which the Rust API, the CLI and the server share.
    "python_tool": WrapperFactory("python_tool", NATIVE),
    "python_tool_no_int_reward": WrapperFactory("python_tool_no_int_reward", NATIVE),
    "python_tool_no_int_reward_last_line_error": WrapperFactory("python_tool_no_int_reward_last_line_error", NATIVE),
    "search_tool": WrapperFactory("search_tool", NATIVE),
    "search_tool_no_int_reward": WrapperFactory("search_tool_no_int_reward", NATIVE),
    "concat": WrapperFactory("concat", NATIVE),
    "concat_with_action": WrapperFactory("concat_with_action", NATIVE),
    "concat_chat": WrapperFactory("concat_chat", CHAT),
    "concat_chat_on_reset": WrapperFactory("concat_chat_on_reset", CHAT),
    "episode_tracking": WrapperFactory("episode_tracking", NATIVE),
}

TOOL_WRAPPERS = ("tools", "python_tool", "python_tool_no_int_reward", "python_tool_no_int_reward_last_line_error",
                 "search_tool", "search_tool_no_int_reward")

TOKENIZER_REQUIRED = ["concat_chat", "concat_chat_on_reset"]


def get_wrapper_fns(wrappers: str, tokenizer=None) -> list:
    """Wrapper factories for comma-separated names (GEM's helper); wrapper plugin ids work too."""
    fns = []
    for name in filter(None, (wrappers or "").split(",")):
        fn = resolve(name)
        if name in TOKENIZER_REQUIRED and tokenizer is not None:
            fn = fn.bind(tokenizer=tokenizer)
        fns.append(fn)
    return fns


def resolve(wrapper) -> Callable:
    """A ``WrapperFactory`` for a name, a factory or a ``functools.partial`` of one; any other
    callable is returned as is (it will wrap each env in Python)."""
    if isinstance(wrapper, str):
        if wrapper in WRAPPER_FACTORY:
            return WRAPPER_FACTORY[wrapper]
        if ":" in wrapper:
            return WrapperFactory(wrapper, NATIVE)
        from geode.errors import InvalidArgumentError

        raise InvalidArgumentError(
            f"unknown wrapper `{wrapper}`; known: {', '.join(WRAPPER_FACTORY)} or a wrapper plugin id"
        )
    if isinstance(wrapper, WrapperFactory):
        return wrapper
    if isinstance(wrapper, functools.partial) and isinstance(wrapper.func, WrapperFactory) and not wrapper.args:
        return wrapper.func.bind(**wrapper.keywords)
    native_tools = _native_tool_partial(wrapper)
    if native_tools is not None:
        return native_tools
    if callable(wrapper):
        return wrapper
    raise TypeError(f"a wrapper must be a name or a callable, got {wrapper!r}")


def _native_tool_partial(wrapper) -> Optional[WrapperFactory]:
    """GEM's ``partial(ToolEnvWrapper, tools=[...], ...)`` as the native tools layer, when every
    tool is one the host runs (else None: the partial wraps each env in Python)."""
    from geode.tools import NativeTool, ToolEnvWrapper
    from geode.tools.tool_env_wrapper import tools_config

    if not (isinstance(wrapper, functools.partial) and wrapper.func is ToolEnvWrapper and not wrapper.args):
        return None
    options = dict(wrapper.keywords)
    chosen = options.pop("tools", None)
    if not chosen or not all(isinstance(tool, NativeTool) for tool in chosen):
        return None
    return WrapperFactory("tools", NATIVE, **tools_config(chosen, **options))
