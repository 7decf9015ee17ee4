"""The observation of one seat: everything public plus the seat's own hand (R7).

One flat float32 vector, the same size for 3-6 players. Players appear seat-relative
(block 0 = the observer, 1 = the next player clockwise, ...). Other hands appear only as
sizes and the draw pile only as a count. `noir_env.spaces.OBS_SLICES` names the parts.
"""

from noir_env.engine.jit import kernel

from ..engine.layout import field_offsets
from ..engine.refcount import borrowed
from . import constants as C
from .board import in_first_round
from .rules import NUM_OBSERVED_RULE_FIELDS, RULE_FIELDS

RULE_PREP_FIRST = RULE_FIELDS.index("prep_first")
RULE_CD_NEXT_TURN = RULE_FIELDS.index("cd_next_turn")

S = C.NUM_SLOTS
P = C.MAX_PLAYERS

# --- layout: (name, size) in order; offsets are module constants the kernel compiles in ----
SLOT_FEATURES = [
    "income",
    "gangsters_1",
    "gangsters_2",
    "gangsters_3",
    "gangsters_4",
    "covers_hideout",
    "attacked_this_turn",
    "attack_target",
    "police_kidnaps",
    "drivebys",
    "turncoat_target",
]
SF = len(SLOT_FEATURES)
# one reaction waiting in the window's queue, in play order (R5.3)
QUEUE_FEATURES = [
    ("kind", 5),  # police_kidnap, police_cancel, driveby, turncoat, poker_night
    ("standing", 1),  # a Police not (or re-) bribed
    ("dice", 1),  # Drive-bys on that business, rolled together
    ("player", P),  # who played it, seat-relative
    ("target_seat", P),  # seat-relative
    ("target_place", 1),  # slot + 1, or 29 for the Hideout (a Police cancel's target)
    ("power", 1),  # a Turncoat: the power of the gangster it takes (1-4)
]
QUEUE_OFFSETS = {}
_k = 0
for _name, _size in QUEUE_FEATURES:
    QUEUE_OFFSETS[_name] = _k
    _k += _size
QF = _k
SEAT_FIELDS = [
    ("present", 1),
    ("alive", 1),
    ("money", 1),
    ("hand_size", 1),
    ("trophies", 1),
    ("kills", 1),
    ("hideout_gangsters", 4),
    ("hideout_open", 1),
    ("hideout_attacked", 1),
    ("hideout_attack_target", 1),
    ("hidden", 4),
    ("known_cards", C.NUM_CARD_TYPES),
    ("turncoat_target_hidden", 1),
    ("turncoat_target_attack", 1),
    ("businesses", S * SF),
]
GLOBAL_FIELDS = [
    ("phase", C.NUM_PHASES),
    ("actor", P),
    ("active", P),
    ("num_players", 4),
    ("first_round", 1),
    ("turn_no", 1),
    ("bank", 1),
    ("deck", 1),
    ("discard_pile", C.NUM_CARD_TYPES),
    ("removed", C.NUM_CARD_TYPES),
    ("countdown_on", 1),
    ("countdown_tokens", 1),
    ("countdown_holder", P),
    ("countdown_turns_left", 1),
    ("hand", C.NUM_CARD_TYPES),
    ("step_count", 1),
    ("selected_power", 4),
    ("reaction_kind", 6),
    ("attack_pending", 1),
    ("attack_target_seat", P),
    ("attack_on_hideout", 1),
    ("attackers", 4),
    ("window", C.NUM_WINDOWS),
    ("window_owner", P),
    ("step", C.ST_END + 1),
    ("queue", C.QUEUE_LEN * QF),
    ("move_locked", C.NUM_PLACES * 4),
    ("kidnapped_this_move", 4),  # the active player's, kept HIDDEN until the next Move (R3.5)
    ("rules", NUM_OBSERVED_RULE_FIELDS),  # the rules row but the fields added after rules v2
]


GLOBAL_OFFSETS, GLOBAL_SIZE = field_offsets(GLOBAL_FIELDS)
SEAT_OFFSETS, SEAT_SIZE = field_offsets(SEAT_FIELDS)
OBS_SIZE = GLOBAL_SIZE + P * SEAT_SIZE

_g = {k: v[0] for k, v in GLOBAL_OFFSETS.items()}
_s = {k: v[0] for k, v in SEAT_OFFSETS.items()}
O_PHASE, O_ACTOR, O_ACTIVE, O_NP = _g["phase"], _g["actor"], _g["active"], _g["num_players"]
O_FIRST, O_TURN, O_BANK, O_DECK = _g["first_round"], _g["turn_no"], _g["bank"], _g["deck"]
O_DISCARD, O_REMOVED = _g["discard_pile"], _g["removed"]
O_CD_ON, O_CD_TOK, O_CD_HOLD = _g["countdown_on"], _g["countdown_tokens"], _g["countdown_holder"]
O_HAND, O_COUNT, O_SELPOW, O_RTKIND = (
    _g["hand"],
    _g["step_count"],
    _g["selected_power"],
    _g["reaction_kind"],
)
O_ATK, O_ATK_SEAT, O_ATK_HO, O_ATK_G = (
    _g["attack_pending"],
    _g["attack_target_seat"],
    _g["attack_on_hideout"],
    _g["attackers"],
)
O_WIN, O_WIN_OWNER, O_STEP, O_QUEUE = _g["window"], _g["window_owner"], _g["step"], _g["queue"]
O_LOCK, O_RULES, O_CD_LEFT = _g["move_locked"], _g["rules"], _g["countdown_turns_left"]
O_KEPT = _g["kidnapped_this_move"]
Q_KIND, Q_STANDING, Q_DICE = QUEUE_OFFSETS["kind"], QUEUE_OFFSETS["standing"], QUEUE_OFFSETS["dice"]
Q_PLAYER, Q_TSEAT, Q_TPLACE, Q_POWER = (
    QUEUE_OFFSETS["player"],
    QUEUE_OFFSETS["target_seat"],
    QUEUE_OFFSETS["target_place"],
    QUEUE_OFFSETS["power"],
)
S_PRESENT, S_ALIVE, S_MONEY, S_HAND, S_TROPH, S_KILLS = (
    _s["present"],
    _s["alive"],
    _s["money"],
    _s["hand_size"],
    _s["trophies"],
    _s["kills"],
)
S_HO_G, S_HO_OPEN, S_HO_ATT, S_HO_TGT = (
    _s["hideout_gangsters"],
    _s["hideout_open"],
    _s["hideout_attacked"],
    _s["hideout_attack_target"],
)
S_KNOWN = _s["known_cards"]
S_HIDDEN, S_TC_HIDDEN, S_TC_ATK, S_BIZ = (
    _s["hidden"],
    _s["turncoat_target_hidden"],
    _s["turncoat_target_attack"],
    _s["businesses"],
)


@kernel
def _flag(cond):
    return 1.0 if cond else 0.0


@kernel
def _rel(s, i, seat, other):
    """Seat-relative index of `other` as seen from `seat`."""
    return (other - seat) % s[i].num_players


@kernel
def write_observation(s, i, seat, o):
    """Fill the float32 vector `o` with what `seat` sees of game i (zeros elsewhere)."""
    s, o = borrowed(s), borrowed(o)
    o[:] = 0.0
    n = s[i].num_players
    o[O_PHASE + s[i].phase] = 1.0
    if s[i].actor >= 0:
        o[O_ACTOR + _rel(s, i, seat, s[i].actor)] = 1.0
    o[O_ACTIVE + _rel(s, i, seat, s[i].active)] = 1.0
    o[O_NP + n - 3] = 1.0
    o[O_FIRST] = _flag(in_first_round(s, i))
    o[O_TURN] = s[i].turn_no
    o[O_BANK] = s[i].bank
    o[O_DECK] = s[i].deck_n
    for t in range(C.NUM_CARD_TYPES):
        o[O_DISCARD + t] = s[i].discard[t]
        o[O_REMOVED + t] = s[i].removed[t]
        o[O_HAND + t] = s[i].hand[seat, t]
    if s[i].cd_on:
        o[O_CD_ON] = 1.0
        o[O_CD_TOK] = s[i].cd_tokens
        o[O_CD_HOLD + _rel(s, i, seat, s[i].cd_holder)] = 1.0
        o[O_CD_LEFT] = countdown_turns_left(s, i)
    for k in range(NUM_OBSERVED_RULE_FIELDS):
        o[O_RULES + k] = s[i].rules[k]
    o[O_COUNT] = s[i].count
    ph = s[i].phase
    if ph == C.PH_MOVE_TO or ph == C.PH_DEPLOY_TO:
        o[O_SELPOW + s[i].sel_a] = 1.0
    if ph == C.PH_REACT_TARGET or ph == C.PH_TURNCOAT_POWER:
        o[O_RTKIND + s[i].rt_kind] = 1.0
    atk_q = s[i].atk_player
    if atk_q >= 0:
        o[O_ATK] = 1.0
        o[O_ATK_SEAT + _rel(s, i, seat, atk_q)] = 1.0
        o[O_ATK_HO] = _flag(s[i].atk_slot == C.TGT_HIDEOUT)
        for pw in range(4):
            o[O_ATK_G + pw] = s[i].atk_g[pw]
    o[O_WIN + s[i].win_kind] = 1.0
    if s[i].win_kind != C.WIN_NONE:
        o[O_WIN_OWNER + _rel(s, i, seat, s[i].win_owner)] = 1.0
    if ph != C.PH_MULLIGAN and ph != C.PH_GAME_OVER and s[i].step_idx >= 0:
        o[O_STEP + current_step(s, i)] = 1.0
    for k in range(s[i].rq_n):
        _write_queued(s, i, seat, k, o, O_QUEUE + k * QF)
    if s[i].active == seat and (ph == C.PH_MOVE or ph == C.PH_MOVE_TO):
        for place in range(C.NUM_PLACES):
            for pw in range(4):
                o[O_LOCK + place * 4 + pw] = s[i].lock[place, pw]
    for pw in range(4):
        o[O_KEPT + pw] = s[i].kept_hidden[pw]
    tc = ph == C.PH_TURNCOAT_POWER
    for q in range(n):
        base = GLOBAL_SIZE + _rel(s, i, seat, q) * SEAT_SIZE
        _write_seat(s, i, q, tc, o, base)


@kernel
def _write_seat(s, i, q, tc, o, base):
    o[base + S_PRESENT] = 1.0
    o[base + S_ALIVE] = s[i].alive[q]
    o[base + S_MONEY] = s[i].money[q]
    hs = 0
    for t in range(C.NUM_CARD_TYPES):
        hs += s[i].hand[q, t]
    o[base + S_HAND] = hs
    o[base + S_TROPH] = s[i].trophies[q]
    o[base + S_KILLS] = s[i].kills[q]
    for pw in range(4):
        o[base + S_HO_G + pw] = s[i].ho_g[q, pw]
        o[base + S_HIDDEN + pw] = s[i].hidden[q, pw]
    for t in range(C.NUM_CARD_TYPES):
        o[base + S_KNOWN + t] = s[i].known[q, t]
    top = s[i].ho_top[q]
    o[base + S_HO_OPEN] = _flag(top < 0)
    o[base + S_HO_ATT] = s[i].attacked[q, C.PLACE_HIDEOUT]
    atk_here = s[i].atk_player == q
    o[base + S_HO_TGT] = _flag(atk_here and s[i].atk_slot == C.TGT_HIDEOUT)
    tc_here = tc and s[i].sel_a == q
    o[base + S_TC_HIDDEN] = _flag(tc_here and s[i].sel_b == C.TGT_HIDDEN)
    o[base + S_TC_ATK] = _flag(tc_here and s[i].sel_b == C.TGT_ATTACK)
    for t in range(S):
        inc = s[i].biz[q, t]
        if inc == 0 and s[i].attacked[q, t] == 0:
            continue
        k = base + S_BIZ + t * SF
        o[k] = inc
        for pw in range(4):
            o[k + 1 + pw] = s[i].biz_g[q, t, pw]
        o[k + 5] = _flag(inc > 0 and top == t)
        o[k + 6] = s[i].attacked[q, t]
        o[k + 7] = _flag(atk_here and s[i].atk_slot == t)
        o[k + 10] = _flag(tc_here and s[i].sel_b == t)
    for e in range(s[i].rq_n):  # the queue's kidnaps and Drive-bys on q's businesses
        t = s[i].rq_ts[e]
        if s[i].rq_tp[e] != q or t >= S:
            continue
        k = base + S_BIZ + t * SF
        if s[i].rq_kind[e] == C.RQ_KIDNAP:
            o[k + 8] += s[i].rq_standing[e]
        elif s[i].rq_kind[e] == C.RQ_DRIVEBY:
            o[k + 9] += s[i].rq_dice[e]


@kernel(inline="always")
def _write_queued(s, i, seat, k, o, base):
    """Queue entry k (R5.3): what was played, by whom, on what, and whether it stands."""
    o[base + Q_KIND + s[i].rq_kind[k] - 1] = 1.0
    o[base + Q_STANDING] = s[i].rq_standing[k]
    o[base + Q_DICE] = s[i].rq_dice[k]
    o[base + Q_PLAYER + _rel(s, i, seat, s[i].rq_player[k])] = 1.0
    o[base + Q_TSEAT + _rel(s, i, seat, s[i].rq_tp[k])] = 1.0
    o[base + Q_TPLACE] = s[i].rq_ts[k] + 1
    if s[i].rq_kind[k] == C.RQ_TURNCOAT:
        o[base + Q_POWER] = s[i].rq_power[k] + 1


@kernel(inline="always")
def current_step(s, i):
    """The ST_* step the active player's turn is in."""
    order = C.STEP_ORDER_PREP_FIRST if s[i].rules[RULE_PREP_FIRST] else C.STEP_ORDER_NOIRBURG
    return order[s[i].step_idx]


@kernel
def countdown_turns_left(s, i):
    """R6.3: turns of the holder still to end before the countdown does, the current one
    included when the holder is active (its tokens, plus one while the holder is in the
    turn in which the countdown started and `countdown_starts_next_turn` holds)."""
    left = s[i].cd_tokens
    holder_now = s[i].cd_holder == s[i].active and s[i].phase != C.PH_GAME_OVER
    if holder_now and s[i].rules[RULE_CD_NEXT_TURN] and s[i].turn_no == s[i].cd_turn:
        left += 1
    return left
