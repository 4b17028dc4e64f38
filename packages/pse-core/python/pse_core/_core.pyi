"""Type stubs for the native module ``pse_core._core`` (C++ / nanobind)."""

from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

StateId = int | str
Edge = tuple[StateMachine, StateId]
StateGraph = dict[StateId, list[Edge]]

class StateMachine:
    """A grammar node: a graph of states whose edges are nested state machines."""

    stepper_class: ClassVar[type[Stepper]]

    def __init__(
        self,
        state_graph: StateGraph | None = None,
        start_state: StateId = 0,
        end_states: list[StateId] | None = None,
        is_optional: bool = False,
        is_case_sensitive: bool = True,
        identifier: str | None = None,
    ) -> None: ...
    state_graph: StateGraph
    start_state: StateId
    end_states: list[StateId]
    is_optional: bool
    is_case_sensitive: bool
    identifier: str | None
    @property
    def kind(self) -> str: ...
    def get_new_stepper(self, state: StateId | None = None) -> Stepper: ...
    def get_steppers(self, state: StateId | None = None) -> list[Stepper]: ...
    def get_edges(self, state: StateId) -> list[Edge]: ...
    def get_transitions(self, stepper: Stepper) -> list[tuple[Stepper, StateId]]: ...
    def advance_stepper(self, stepper: Stepper, token: str) -> list[Stepper]: ...
    def branch_stepper(self, stepper: Stepper, token: str | None = None) -> list[Stepper]: ...
    def advance_all_steppers(self, steppers: list[Stepper], token: str) -> list[Stepper]: ...
    @staticmethod
    def advance_all(
        steppers: list[Stepper],
        token: str,
        vocab: TrieMap | None = None,
        token_healing: bool = True,
    ) -> list[StepperDelta]: ...
    @staticmethod
    def advance_all_basic(steppers: list[Stepper], token: str) -> list[Stepper]: ...
    def seal(self) -> int:
        """Own the targets of the recursive references below; they become back-edges.

        The finished grammar then has no reference cycle and is freed with this
        root; it must not change afterwards. Returns the number of references sealed.
        """
    def accepts_nothing(self) -> bool:
        """True when this machine provably matches no string (an empty language).

        False when it matches something or when that is unknown: Python-defined
        nodes and grammars are assumed to match.
        """

class PhraseStateMachine(StateMachine):
    def __init__(
        self,
        phrase: str,
        is_optional: bool = False,
        is_case_sensitive: bool = True,
        identifier: str | None = None,
    ) -> None: ...
    @property
    def phrase(self) -> str: ...

class CharacterStateMachine(StateMachine):
    def __init__(
        self,
        whitelist_charset: str | Iterable[str] = "",
        graylist_charset: str | Iterable[str] = "",
        blacklist_charset: str | Iterable[str] = "",
        char_min: int | None = None,
        char_limit: int | None = None,
        is_optional: bool = False,
        case_sensitive: bool = True,
        identifier: str | None = None,
    ) -> None: ...
    @property
    def charset(self) -> set[str]: ...
    @property
    def graylist_charset(self) -> set[str]: ...
    @property
    def blacklist_charset(self) -> set[str]: ...
    @property
    def char_min(self) -> int: ...
    @property
    def char_limit(self) -> int: ...

class StringStateMachine(StateMachine):
    def __init__(
        self,
        min_length: int | None = None,
        max_length: int | None = None,
        is_optional: bool = False,
        identifier: str | None = None,
    ) -> None: ...
    @property
    def min_length(self) -> int: ...
    @property
    def max_length(self) -> int | None: ...

class NumberStateMachine(StateMachine):
    def __init__(
        self,
        is_optional: bool = False,
        identifier: str | None = None,
        integer_only: bool = False,
        allow_negative: bool = True,
    ) -> None: ...
    @property
    def integer_only(self) -> bool: ...
    @property
    def allow_negative(self) -> bool: ...

class LoopStateMachine(StateMachine):
    def __init__(
        self,
        state_machine: StateMachine,
        min_loop_count: int = 1,
        max_loop_count: int = -1,
        separator: StateMachine | None = None,
        is_optional: bool = False,
        identifier: str | None = None,
    ) -> None: ...
    @property
    def state_machine(self) -> StateMachine: ...
    @property
    def separator(self) -> StateMachine | None: ...
    @property
    def min_loop_count(self) -> int: ...
    @property
    def max_loop_count(self) -> int: ...

class WaitFor(StateMachine):
    def __init__(
        self,
        state_machine: StateMachine,
        buffer_length: int = -1,
        strict: bool = False,
        is_optional: bool = False,
        identifier: str | None = None,
    ) -> None: ...
    @property
    def state_machine(self) -> StateMachine: ...
    @property
    def buffer_length(self) -> int: ...
    @property
    def strict(self) -> bool: ...

class DfaStateMachine(StateMachine):
    """A byte-level automaton: ``transitions[s][b]`` is the next state or -1.

    ``transitions`` may also be ``bytes``: the rows packed as native-endian
    int32, 256 per state.
    """

    def __init__(
        self,
        transitions: Sequence[Sequence[int]] | bytes,
        accepting: Sequence[bool],
        start: int = 0,
        is_optional: bool = False,
        identifier: str | None = None,
    ) -> None: ...
    @property
    def state_count(self) -> int: ...
    @property
    def byte_classes(self) -> int: ...

class RefStateMachine(StateMachine):
    """A forward reference, for recursive grammars; resolved with ``set_target``."""

    def __init__(self, target: StateMachine | None = None) -> None: ...
    def set_target(self, target: StateMachine) -> None: ...
    @property
    def target(self) -> StateMachine | None: ...

class Stepper:
    def __init__(
        self, state_machine: StateMachine, current_state: StateId | None = None
    ) -> None: ...
    def clone(self) -> Stepper: ...
    def consume(self, token: str) -> list[Stepper]: ...
    def branch(self, token: str | None = None) -> list[Stepper]: ...
    def should_start_step(self, token: str) -> bool: ...
    def should_complete_step(self) -> bool: ...
    def start_step(
        self, sub_stepper: Stepper, target_state: StateId, token: str | None = None
    ) -> Stepper | None: ...
    def complete_step(self, sub_stepper: Stepper) -> list[Stepper]: ...
    def step(self, new_value: str | None = None, remaining_input: str | None = None) -> Stepper: ...
    def add_to_history(self, stepper: Stepper) -> None: ...
    def get_current_value(self) -> Any: ...
    def get_raw_value(self) -> str: ...
    def get_valid_continuations(self) -> list[str]: ...
    def get_invalid_continuations(self) -> list[str]: ...
    def has_reached_accept_state(self) -> bool: ...
    def can_accept_more_input(self) -> bool: ...
    def is_within_value(self) -> bool: ...
    def accepts_any_token(self) -> bool: ...
    def get_identifier(self) -> str | None: ...
    def get_token_ids_history(self) -> list[int]: ...
    def get_token_safe_output(self, decode_function: Callable[[list[int]], str]) -> str: ...
    @property
    def value(self) -> Any: ...
    state_machine: StateMachine
    current_state: StateId
    target_state: StateId | None
    sub_stepper: Stepper | None
    history: list[Stepper]
    consumed_character_count: int
    remaining_input: str | None
    _raw_value: str | None

class StepperDelta:
    def __init__(
        self, stepper: Stepper, token: str, was_healed: bool = False, token_id: int = -1
    ) -> None: ...
    stepper: Stepper
    token: str
    was_healed: bool
    token_id: int
    def is_attractive_path(self) -> bool: ...
    @staticmethod
    def choose_best_path(deltas: list[StepperDelta]) -> tuple[str, list[Stepper]]: ...

class TrieMap:
    """Token bytes -> token ids, with prefix queries; the vocabulary trie."""

    def __init__(self, items: Iterable[tuple[str | bytes, int]] = ()) -> None: ...
    def insert(self, key: str | bytes, value: int) -> None: ...
    def insert_all(self, items: Iterable[tuple[str | bytes, int]]) -> None: ...
    def get(self, key: str | bytes, default: list[int] | None = None) -> list[int] | None: ...
    def __getitem__(self, key: str | bytes) -> list[int]: ...
    def __contains__(self, key: object) -> bool: ...
    def __len__(self) -> int: ...
    def longest_prefix(self, key: str | bytes) -> tuple[str, list[int]] | None: ...
    def keys(self) -> list[str]: ...
    @property
    def node_count(self) -> int: ...

class Vocabulary:
    """One tokenizer's tokens as bytes, built once and shared by every engine."""

    def __init__(
        self,
        tokens: Sequence[bytes | None],
        control_token_ids: Iterable[int] = (),
        eos_token_ids: Iterable[int] = (),
    ) -> None: ...
    def __len__(self) -> int: ...
    def token_bytes(self, token_id: int) -> bytes | None: ...
    @property
    def trie(self) -> TrieMap: ...
    @property
    def eos_token_ids(self) -> list[int]: ...
    @property
    def control_token_ids(self) -> list[int]: ...
    @property
    def mask_cache_entries(self) -> int: ...
    @property
    def mask_cache_bytes(self) -> int: ...
    @property
    def mask_cache_limit(self) -> int:
        """Bytes of mask-cache entries kept before the cache empties (default 1 GiB)."""
    @mask_cache_limit.setter
    def mask_cache_limit(self, bytes: int) -> None: ...

class Engine:
    def __init__(
        self,
        vocabulary: Vocabulary,
        multi_token_sampling: bool = False,
        max_resample_attempts: int = 5,
    ) -> None: ...
    state_machine: StateMachine | None
    steppers: list[Stepper]
    multi_token_sampling: bool
    max_resample_attempts: int
    remember_masks: bool
    """Recall and remember whole masks by the structure of the position (on by
    default); off, every mask is computed."""
    multi_token_mapping: dict[int, list[int]]
    whitelist_control_token_ids: list[int]
    @property
    def has_reached_accept_state(self) -> bool: ...
    @property
    def vocabulary(self) -> TrieMap: ...
    @property
    def native_vocabulary(self) -> Vocabulary: ...
    @property
    def reverse_vocabulary(self) -> dict[int, str]: ...
    @property
    def vocab_size(self) -> int: ...
    @property
    def token_ids_history(self) -> list[int]: ...
    @property
    def raw_output(self) -> str: ...
    def reset(self, hard_reset: bool = False) -> None: ...
    def fill_bitmask(self, out: NDArray[np.int32]) -> int: ...
    def fill_mask(self, out: NDArray[np.int32]) -> tuple[int, bool]:
        """``fill_bitmask``, returning ``(allowed, only_end)``: ``only_end`` when the
        structure is complete and only end tokens (EOS, whitelisted) are allowed."""
    def advance_token(
        self, token_id: int, budget: int | None = None, out: NDArray[np.int32] | None = None
    ) -> tuple[list[int], int, bool]:
        """Advance on a chosen token and fill the next mask in one call.

        Returns ``(emitted, allowed, only_end)``: the ids to emit (``[]`` when
        the token is not allowed or, with ``budget``, no known completion fits
        after it; the engine is then unchanged), then ``fill_mask(out)`` after
        them (``0, False`` without ``out``, when rejected, or after EOS).
        """
    def allowed_token_ids(self) -> list[int]: ...
    def is_token_allowed(self, token_id: int) -> bool: ...
    def consume_token(self, token_id: int) -> list[int]: ...
    def consume_text(self, text: str, token_healing: bool = True) -> bool: ...
    def shortest_completion(self) -> str | None: ...
    def completion_token_ids(self) -> list[int] | None: ...
    def completion_length_after(self, token_id: int) -> int | None: ...

def unique_items(
    array: StateMachine,
    domain: Sequence[tuple[str, int]] = (),
    numbers: Sequence[StateMachine] = (),
    strings: Sequence[StateMachine] = (),
) -> StateMachine:
    """``array`` (a machine reading one JSON array) whose items must be pairwise
    distinct in JSON equality: the token completing an item equal to an earlier
    one is masked, and so is an item's beginning that fixes a value already seen
    (native, no Python per token). ``domain``: every value an item may take, when
    finitely many scalars, as (JSON text, exponent mask: bit ``e + 4`` set when
    its automaton writes it with exponent ``e``, ``|e| <= 4``); an item's
    beginning is then masked when every unseen value is out of its reach
    (``ValueError`` for a text that is not one JSON scalar). Without a domain,
    ``numbers``: the DFA machines of every number an item may be, ``strings``:
    the DFA or string machines of every string it may be; a number (string)
    item's beginning is then masked when every value beyond it in those
    machines is a seen one (``ValueError`` for another kind)."""

def canonical_json(text: str) -> bytes | None:
    """The key under which JSON-equal values coincide, for the text of one JSON
    value (None for other text, or a number with an exponent over 18 digits)."""

def checked_string(
    string: StateMachine, format: str, min_length: int = 0, max_length: int | None = None
) -> StateMachine:
    """``string`` (a machine reading one JSON string) whose decoded value must be a
    valid ``format`` ("regex": an ECMA-262 pattern; "content:application/json" and
    "content:application/json;base64": a JSON text, plain or base64 of UTF-8) within
    the length bounds (code points): a token after which no completion is valid is
    masked."""

def idn_hostname_string(
    string: StateMachine,
    min_length: int,
    max_length: int | None,
    allowed: Sequence[tuple[int, int]],
    valid: Callable[[str], bool],
    viable: Callable[[str, str], bool],
) -> StateMachine:
    """``string`` (a machine reading one JSON string) holding an IDNA2008 host name:
    code points outside ``allowed`` ((lo, hi) ranges) and plain ASCII names are
    judged natively; other names call ``valid(name)`` at the closing quote and
    ``viable(prefix, escape)`` at the end of a token."""

def object_keys(
    object: StateMachine,
    names: Sequence[str],
    usable: Sequence[bool],
    required: Sequence[int],
    dependent: Sequence[Sequence[int]],
    forbidden: Sequence[Sequence[int]],
    others: bool,
    min_properties: int,
    max_properties: int | None,
) -> StateMachine:
    """``object`` (a machine reading one JSON object, offering its pairs in any
    order) whose keys are checked as they arrive: each of ``names`` at most once,
    the ``required`` indices and, transitively, the ``dependent[i]`` of each
    present key before the closing brace, no set of ``forbidden`` complete, keys
    not named only when ``others`` (each at most once), the pair count within the bounds. A token
    after which no completion is valid is masked (native, no Python per token)."""

def ecma_regex_valid(text: str) -> bool:
    """Whether ``text`` is an ECMA-262 pattern (Unicode mode)."""

def ecma_regex_viable(text: str) -> bool:
    """Whether some completion of ``text`` is an ECMA-262 pattern."""

def apply_token_bitmask_inplace(logits: NDArray[Any], bitmask: NDArray[np.int32]) -> None: ...
def fill_masks(
    engines: Sequence[Engine], out: NDArray[np.int32], rows: Sequence[int], threads: int = 0
) -> list[tuple[int, bool]]:
    """Fill the masks of many engines in one call: ``engines[i]`` fills ``out[rows[i]]``.

    Native machines (grammars included) fill in parallel threads with the GIL
    released; any Python-defined machine runs the whole call on this thread with
    the GIL held. Overridden ``fill_bitmask`` methods are not called.
    """

def number_dfa(
    bounds: Sequence[tuple[str, int]],
    multiple_p: int,
    multiple_q: int,
    exponent_limit: int,
    max_remainders: int,
    max_states: int,
    negate_multiple: bool = False,
) -> tuple[list[list[tuple[int, int, int]]], list[bool]] | None:
    """Minimal DFA of the JSON number literals meeting numeric constraints.

    ``bounds``: (exact decimal text, allowed outcome bits: 1 less, 2 equal,
    4 greater); multipleOf = ``multiple_p / multiple_q`` (``multiple_p == 0``:
    none; ``negate_multiple``: the values that are *not* multiples); exponents
    limited to ``|x| <= exponent_limit``. Rows are sorted ``(lo, hi, target)``
    character ranges; None past ``max_states`` states.
    """

def number_machine(
    bounds: Sequence[tuple[str, int]],
    multiple_p: int,
    multiple_q: int,
    exponent_limit: int,
    max_remainders: int,
    max_states: int,
    negate_multiple: bool,
    max_rows: int,
) -> DfaStateMachine | str:
    """``number_dfa``'s language as a ``DfaStateMachine`` built in one call (the
    DFA, its UTF-8 rows, the machine), or why not: ``"states"`` (past
    ``max_states``), ``"empty"`` (no number qualifies), ``"rows"`` (past
    ``max_rows`` byte rows)."""

def minimize_dfa(
    transitions: Sequence[Sequence[tuple[int, int, int]]], accepting: Sequence[bool]
) -> tuple[list[list[tuple[int, int, int]]], list[bool]]:
    """The minimal DFA equivalent to one given as sorted ``(lo, hi, target)``
    ranges per state (start state 0): useless states dropped, equivalent states
    merged, states numbered breadth-first, adjacent ranges with one target joined."""

def literal_dfa(names: Iterable[str]) -> tuple[list[list[tuple[int, int, int]]], list[bool]]:
    """The minimal DFA (code-point ranges per state) accepting exactly ``names``."""

def regex_dfas(
    pattern: str,
    anchored: bool,
    digit_positions: Iterable[int],
    unicode_property: Callable[[str], Sequence[tuple[int, int]]],
) -> (
    tuple[list[tuple[list[list[tuple[int, int, int]]], list[bool], bool]], None, None, None]
    | tuple[None, str, str, int]
):
    """Compile an ECMA-262 pattern (``pse.automata``'s dialect) to minimal
    code-point DFAs: ``(parts, None, None, None)``, parts being ``(transitions,
    accepting, negative)``, the pattern's DFA first, then one per leading
    lookahead; or ``(None, kind, what, offset)``, kind ``"syntax"`` (what at
    offset), ``"lookahead"`` (not right after a leading ``^``), ``"nfa"`` or
    ``"dfa"`` (too large). ``digit_positions``: offsets of the non-ASCII
    characters ``str.isdigit`` accepts; ``unicode_property(name)`` resolves
    ``\\p{name}``."""

def lower_utf8(
    transitions: Sequence[Sequence[tuple[int, int, int]]],
    accepting: Sequence[bool],
    max_states: int,
) -> tuple[bytes, list[bool]] | None:
    """Byte rows reading the UTF-8 encoding of a code-point DFA's strings (row s
    is state s): packed native int32 rows of 256 targets (-1: no move) and the
    accepting flags, or None past ``max_states`` rows."""

def lower_json_string(
    transitions: Sequence[Sequence[tuple[int, int, int]]],
    accepting: Sequence[bool],
    max_states: int,
) -> tuple[bytes, list[bool]] | None:
    """Byte rows reading the JSON string literals (quotes, raw UTF-8, short and
    ``\\uXXXX`` escapes, surrogate pairs) of a code-point DFA's strings (start
    row 0): packed native int32 rows of 256 targets and the accepting flags, or
    None past ``max_states`` rows."""

def literal_json_string(
    names: Iterable[str], exclude: bool, max_states: int
) -> DfaStateMachine | None:
    """A machine reading the JSON string literals that decode to one of ``names``
    (``exclude``: to none of them), built in one native call (``literal_dfa``,
    complement, ``lower_json_string``, the machine), or None past ``max_states`` rows."""

def pattern_json_string(
    pattern: str,
    digit_positions: Iterable[int],
    unicode_property: Callable[[str], Sequence[tuple[int, int]]],
    min_length: int,
    max_length: int,
    max_length_states: int,
    max_states: int,
) -> DfaStateMachine | None:
    """A machine reading the JSON string literals whose value ``pattern``
    (unanchored, no lookaheads) matches, of ``min_length..max_length`` code
    points (``max_length < 0``: no maximum), built in one native call (regex,
    length counter, minimisation, ``lower_json_string``, the machine); None
    where the caller's general path decides (a pattern that does not compile or
    has lookaheads, ``(cap + 1) x states`` past ``max_length_states``, no string
    at all, more than ``max_states`` rows)."""

class Grammar:
    """A compiled context-free grammar: terminal automata under an Earley parser."""

    def __init__(
        self,
        terminals: Sequence[tuple[str, bytes, Sequence[bool], int, bool, str, int]],
        rules: Sequence[tuple[int, Sequence[int]]],
        start: int,
        nonterminals: Sequence[str],
        hook: str = "",
    ) -> None:
        """``terminals``: (name, packed int32 rows, accepting, priority, literal, role,
        bracket); ``rules``: (lhs, symbols), a symbol >= 0 a terminal index, < 0 the
        nonterminal ``~index``; ``hook``: "", "python" or "bash"."""
    def validate(self, text: str | bytes, strict: bool = False) -> bool: ...
    @property
    def lexer_states(self) -> int: ...

class GrammarStateMachine(StateMachine):
    """A context-free grammar as a state machine."""

    def __init__(
        self, grammar: Grammar, is_optional: bool = False, identifier: str | None = None
    ) -> None: ...
