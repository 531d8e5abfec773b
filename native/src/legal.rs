//! Legal actions and why an action is refused (`canasta/_core/_legal.py`): one set of checks.

use crate::draw::*;
use crate::kernel::*;
use crate::discard::*;
use crate::meld::*;
use crate::meldphase::*;
use crate::reasons::*;
use crate::text;
use crate::rules::*;

/// Every legal action id of `c`, in a fixed order; empty only when nobody is to act.
pub fn legal_ids(c: &Core, acts: &mut Vec<u32>) {
    let ph = c.phase;
    if ph == PH_DRAW {
        draw_phase_ids(c, acts);
    } else if ph == PH_MELD || ph == PH_FINAL_MELD || ph == PH_INITIAL_TAKE {
        if c.r().suited {
            suited_meld_phase_ids(c, acts);
        } else {
            meld_phase_ids(c, acts);
        }
    } else if ph == PH_ANSWER {
        acts.push(c.r().id_yes as u32);
        acts.push(c.r().id_no as u32);
    }
}

/// The first failing check's reason for `probe` in `c`, or None if it is legal. `in_space`:
/// whether the variant has this action (`probe in R.ids`).
pub fn problem(c: &Core, probe: &Spec, in_space: bool) -> Option<Reason> {
    let ph = c.phase;
    if ph == PH_GAME_OVER {
        return Some(text!("the game is over: nobody is to act"));
    }
    if ph == PH_HAND_OVER || c.player < 0 {
        return Some(text!("the hand is over: nobody is to act until the next hand is dealt"));
    }
    let r = c.r();
    let kind = probe.kind;
    if let Some(t) = phase_problem(c, probe) {
        return Some(Reason { code: TEXT, items: if explaining() { vec![V::S(t)] } else { Vec::new() } });
    }
    if kind == DONE {
        return done_problem(c);
    }
    if !in_space {
        return Some(Reason { code: TEXT, items: vec![V::Space] });
    }
    if c.flags & F_B3 != 0 && r.b3_last && (ph == PH_MELD || ph == PH_FINAL_MELD)
        && [MELD, ADD, COMBINE, ASK, DISCARD].contains(&kind)
    {
        return b3_last_problem(c, probe);
    }
    let seat = c.player as usize;
    match kind {
        DRAW => draw_problem(c),
        TAKE => take_problem(c, seat, probe),
        MELD => meld_problem(c, seat, probe),
        ADD => add_problem(c, seat, probe),
        COMBINE => combine_problem(c, seat, probe),
        DISCARD => {
            let card = probe.a as u8;
            held_problem(&c.hand(seat), &[card]).or_else(|| discard_problem(c, seat)).or_else(|| discard_card_problem(c, seat, card))
        }
        ASK => {
            if ph == PH_DRAW {
                ask_first_problem(c)
            } else {
                ask_after_problem(c)
            }
        }
        PASS => pass_problem(c),
        RETRACT => retract_problem(c),
        ANSWER => None,
        _ => Some(text!("{probe:?} is not an action")),
    }
}

fn retract_words(r: &Rules) -> String {
    if !r.undo_take {
        return "this variant has no retracting a take of the pile".into();
    }
    "there is no take of the pile for an initial meld to retract".into()
}

/// Why this kind of action cannot be taken at this point of the turn, or None.
pub fn phase_problem(c: &Core, probe: &Spec) -> Option<String> {
    let ph = c.phase;
    let r = c.r();
    let kind = probe.kind;
    let flags = c.flags;
    if ph == PH_ANSWER {
        if kind == ANSWER {
            return None;
        }
        return Some("your partner has asked \"may I go out?\": the only actions now are yes or no".into());
    }
    if kind == ANSWER {
        return Some("nobody has asked \"may I go out?\": there is nothing to answer".into());
    }
    if ph == PH_DRAW {
        if [DRAW, TAKE, ASK, PASS].contains(&kind) {
            return None;
        }
        if kind == RETRACT {
            if !r.undo_take {
                return Some("this variant has no retracting a take of the pile".into());
            }
            if flags & F_NO_TAKE != 0 {
                return Some("you have already retracted your take: now draw from the stock".into());
            }
            return Some("you have not taken the pile: there is nothing to retract".into());
        }
        if kind == DONE {
            return Some("'done' ends a turn only when the last card of the stock was a red three; draw or take the pile first".into());
        }
        if stock_left(c) == 0 && [MELD, ADD, COMBINE, DISCARD].contains(&kind) {
            return Some("the stock is exhausted: take the pile or pass first".into());
        }
        return Some("draw or take the pile first".into());
    }
    let took = if flags & F_TOOK != 0 { "taken the pile" } else { "drawn" };
    if ph == PH_FINAL_MELD && [DRAW, TAKE, PASS].contains(&kind) {
        return Some("you have already drawn the last card of the stock, a red three: meld, then say 'done'".into());
    }
    if kind == DRAW || kind == TAKE {
        if ph == PH_INITIAL_TAKE {
            return Some("you are already taking the pile: meld from your hand to reach the initial minimum".into());
        }
        return Some(format!("you have already {took} this turn: meld, add or discard"));
    }
    if kind == PASS {
        if stock_left(c) != 0 {
            return Some(format!("you have already {took} this turn; 'pass' only declines the pile when the stock is exhausted"));
        }
        return Some(format!("you have already {took} this turn: meld, add or discard"));
    }
    if ph == PH_INITIAL_TAKE {
        if kind == DISCARD {
            let side = r.side_of[c.player as usize] as usize;
            let need = 0.max(r.initial_need(c.totals[side], c.d.hand_number) - c.count);
            return Some(format!("you are taking the pile for your initial meld: {}; meld {need} more before you discard",
                                initial_words(c, c.count)));
        }
        if kind == ASK {
            return Some("you may not ask \"may I go out?\" after melding (you are taking the pile)".into());
        }
        if kind == COMBINE {
            if !r.combine {
                return Some("this variant has no combining of melds".into());
            }
            return Some("you may not combine melds while taking the pile for your initial meld".into());
        }
        if kind == DONE {
            return Some("'done' is only for when the last card of the stock was a red three".into());
        }
        return None;
    }
    if ph == PH_FINAL_MELD {
        if kind == DISCARD {
            return Some("the last card of the stock was a red three: you may meld but not discard; say 'done'".into());
        }
        if kind == ASK {
            return Some("the last card of the stock was a red three: you may only meld, then say 'done'".into());
        }
        if kind == RETRACT {
            return Some(retract_words(r));
        }
        return None;
    }
    if kind == RETRACT {
        return Some(retract_words(r));
    }
    None
}
