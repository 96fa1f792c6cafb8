"""GRPO on a geode env with TRL: the env runs in this process, TRL's GRPOTrainer drives it through
its ``environment_factory`` hook (geode.trl), and the env's own reward scores each rollout.

    pip install 'geode[trl]'
    python examples/trl_grpo.py --model Qwen/Qwen3-0.6B --env-id game:GuessTheNumber-v0-easy
    python examples/trl_grpo.py --tiny --steps 2     # no download: a tiny random model, on CPU

``--tiny`` builds a 2-layer Qwen3 with random weights and a byte-level tokenizer made here, whose
chat template is the Qwen3 one TRL ships (so TRL can render the `step` tool and parse its calls).
It learns nothing; it shows the loop runs.

geode's native module takes no static TLS (its allocator uses local-dynamic TLS), so it loads
beside torch's OpenMP runtime in either order. With a wheel older than that, importing the second
of them fails with "cannot allocate memory in static TLS block"; start Python with
``GLIBC_TUNABLES=glibc.rtld.optional_static_tls=16384`` there.
"""

import argparse
import tempfile
from importlib import resources

from geode.trl import environment_factory, prompts


def tiny_tokenizer():
    """A 256-byte byte-level tokenizer with Qwen3's special tokens and the Qwen3 chat template that
    TRL ships (TRL recognises it, so it can parse the model's tool calls)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    alphabet = pre_tokenizers.ByteLevel.alphabet()
    core = Tokenizer(models.BPE(vocab={symbol: index for index, symbol in enumerate(sorted(alphabet))}, merges=[]))
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    core.decoder = decoders.ByteLevel()
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=core, eos_token="<|im_end|>", pad_token="<|endoftext|>")
    tokenizer.add_special_tokens({"additional_special_tokens": ["<|im_start|>", "<tool_call>", "</tool_call>",
                                                                "<think>", "</think>", "<tool_response>",
                                                                "</tool_response>"]})
    tokenizer.chat_template = resources.files("trl").joinpath("chat_templates/qwen3.jinja").read_text()
    return tokenizer


def tiny_model(tokenizer):
    """A randomly initialised 2-layer Qwen3 sized for ``tokenizer``."""
    from transformers import Qwen3Config, Qwen3ForCausalLM

    config = Qwen3Config(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=2, num_key_value_heads=1, head_dim=16, max_position_embeddings=4096,
                         pad_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id)
    return Qwen3ForCausalLM(config)


def main() -> None:
    """Parses the arguments, builds the trainer and trains."""
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env-id", default="game:GuessTheNumber-v0-easy")
    parser.add_argument("--wrappers", nargs="*", default=[], help="e.g. python_tool")
    parser.add_argument("--model", help="a model id or directory (a chat model that calls tools)")
    parser.add_argument("--tiny", action="store_true", help="a tiny random model built here instead")
    parser.add_argument("--steps", type=int, default=2)
    args = parser.parse_args()
    if args.tiny == bool(args.model):
        parser.error("give exactly one of --model and --tiny")

    tokenizer = tiny_tokenizer() if args.tiny else None
    model = tiny_model(tokenizer) if args.tiny else args.model
    config = GRPOConfig(output_dir=tempfile.mkdtemp(prefix="geode-grpo-"), max_steps=args.steps,
                        per_device_train_batch_size=2, num_generations=2, max_completion_length=48,
                        max_tool_calling_iterations=4, logging_steps=1, report_to="none", save_strategy="no",
                        use_cpu=args.tiny, bf16=False)
    kwargs = {"wrappers": args.wrappers} if args.wrappers else {}
    trainer = GRPOTrainer(model=model, processing_class=tokenizer, args=config,
                          train_dataset=Dataset.from_list(prompts(4 * args.steps)),
                          environment_factory=environment_factory(args.env_id, **kwargs))
    trainer.train()
    for entry in trainer.state.log_history:
        print({key: value for key, value in entry.items() if "reward" in key or key in ("step", "loss")})


if __name__ == "__main__":
    main()
