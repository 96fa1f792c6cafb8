//! GEM's `run_python` on top of the sandbox: success means exit code 0, and a program failing
//! with "... is not defined" is run once more with GEM's `BASE_IMPORTS` prepended (without
//! pandas, which the runner does not ship; with it the whole rerun would fail).

use geode_runtime::sandbox::Sandbox;
use geode_runtime::sandbox::StopSignal;
use geode_runtime::sandbox::{RunOutcome, RunRequest};
use std::sync::Arc;

/// GEM's `BASE_IMPORTS` (gem/utils/constants.py) minus pandas.
pub const BASE_IMPORTS: &str = "from itertools import accumulate, chain, combinations, count, permutations, product, groupby, islice, repeat
from copy import deepcopy
from string import ascii_lowercase, ascii_uppercase
from math import floor, log2, log10, sqrt, comb, gcd, ceil, inf, isqrt, factorial, atan2, pi
from collections import defaultdict, deque, Counter
from bisect import bisect, bisect_left, bisect_right, insort
from heapq import heappush, heappop, heapify, merge, nlargest, nsmallest, heapreplace
from functools import reduce, cache, lru_cache, cmp_to_key, reduce
from random import randrange, shuffle
from operator import itemgetter, sub, xor, or_
from re import search as re_search
from os.path import commonprefix
from typing import List, Tuple, Dict, Set, Optional, Union, Any, Callable, Iterable, Iterator, Generator, Deque
import copy
import string
import math
import collections
import bisect
import heapq
import functools
import random
import itertools
import operator
import re
import datetime
from time import time
import numpy as np
from math import log, prod
from collections import deque, defaultdict, Counter, OrderedDict
from itertools import accumulate, permutations, combinations, product, groupby, islice, chain, repeat, zip_longest, cycle, pairwise
from functools import lru_cache, reduce, partial
from operator import iand
import sys
import io, os
";

/// Runs `request` as GEM's `run_python` does: once as given, and again with
/// [`BASE_IMPORTS`] prepended when it failed on a name that "is not defined".
pub fn run_python(sandbox: &Sandbox, request: &RunRequest) -> RunOutcome {
    run_python_with_stop(sandbox, request, &StopSignal::new())
}

/// [`run_python`] under a stop signal shared with related runs (see [`StopSignal`]).
pub fn run_python_with_stop(
    sandbox: &Sandbox,
    request: &RunRequest,
    stop: &Arc<StopSignal>,
) -> RunOutcome {
    let first = sandbox.run_with_stop(request, stop);
    if first.success() || !first.stderr.contains("is not defined") {
        return first;
    }
    let mut again = request.clone();
    again.code = format!("{BASE_IMPORTS}\n{}", request.code);
    let mut second = sandbox.run_with_stop(&again, stop);
    second.elapsed += first.elapsed;
    second.fuel_used = second.fuel_used.saturating_add(first.fuel_used);
    second
}
