"""GEM's repetition test for long answers: the share of repeated substrings, measured by the
longest common prefixes of neighbouring suffixes in suffix order, above 0.2 means the text is
mostly a repeat (grading it is skipped). The suffix order is built by prefix doubling, stopping
once the compared prefix length reaches the text's length minus one, as GEM does; equal ranks
at that point overwrite each other in the same way."""

from itertools import islice, zip_longest


def _dense_ranks(values):
    order = {value: rank for rank, value in enumerate(sorted(set(values)))}
    return [order[value] for value in values]


def _suffix_ranks(codes):
    """(rank of each suffix, suffix at each rank) by prefix doubling."""
    count = len(codes)
    ranks = _dense_ranks(codes)
    step = 1
    while step < count - 1:
        shifted = islice(ranks, step, None)
        ranks = _dense_ranks(list(zip_longest(ranks, shifted, fillvalue=-1)))
        step <<= 1
    by_rank = [0] * count
    for position, rank in enumerate(ranks):
        by_rank[rank] = position
    return ranks, by_rank


def _common_prefix_total(codes, by_rank, ranks):
    """Sum over suffixes of the common prefix with the next suffix in rank order (Kasai)."""
    count = len(codes)
    total = 0
    matched = 0
    for position in range(count):
        rank = ranks[position]
        if rank == count - 1:
            matched = 0
            continue
        other = by_rank[rank + 1]
        while (
            position + matched < count
            and other + matched < count
            and codes[position + matched] == codes[other + matched]
        ):
            matched += 1
        total += matched
        if matched > 0:
            matched -= 1
    return total


def is_repetitive(text):
    """Whether repeated substrings make up more than a fifth of `text`'s substring pairs."""
    codes = [ord(char) for char in text]
    count = len(codes)
    if count <= 1:
        return False
    ranks, by_rank = _suffix_ranks(codes)
    total = _common_prefix_total(codes, by_rank, ranks)
    return total * 2 / (count * (count + 1)) > 0.2
