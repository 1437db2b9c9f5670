"""The rules kit: what the rules of many games need, in general form, for games/ to build on.

- `fold.Fold`: events gathered in order, each folded into the state as it comes, so that
  the next rule sees what the last one did (the plan-gives-events convention).
- `pools`: dice pools, rolled under labels anyone can re-check, and their hits (at or over
  a number, as in "hit on 5-6"; at or under a value, as in "hit on a roll of the attack
  value or less").
- `graph`: cheapest paths and nearest places over a graph of places and links.
- `phases.PhaseTable`: a game's phases as one table (who is awaited, the orders each takes,
  how it resolves, the bot, the default for an absent faction) instead of an if-chain over
  the phase names in every method of the Game protocol.
- `ask`: a question put to players by mail in the middle of a step (a retreat before a
  battle, the losses to take), awaited in a phase of its own, and the step resumed with the
  answers, or the rules' default for a question nobody answered.

- `hexes.Grid`: a hex map named by printed four-digit ids ("0731"), its parity stated by
  the game: neighbours, distance, hexsides as keys for rivers and roads, zones of control,
  and hex centres and corners for an SVG map.
- `hexmap.svg`: the SVG picture of a hex map for a report: hexes filled and named, rivers
  and borders on hexsides, roads, and a badge per stack with its hover text.
- `odds`: an odds-ratio combat results table: odds with fractions dropped in the
  defender's favour, column shifts netted with their reasons, clamping, the die lookup.
- `corrections`: the checks of a moderator's correction event (its fields, its counts).
- `tables`: die tables with modifiers, each with its reason, the total clamped to the
  table's rows ("2-4", "6+", "0-" as row keys), and halving rounded up.

Nothing here names a game; a game passes its own apply, costs and tests in.
"""
