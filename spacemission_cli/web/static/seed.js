// Shared by both pages (index.html, protocol.html): the seed of a new game, the seer note.
function withSeed(body, typed) {
  // the new-game request's JSON text with the seed as typed: seeds go up to 2**64 - 1, and
  // Number() would round one past 2**53 to another seed (another game)
  const seed = typed.trim();
  if (/^[0-9]+$/.test(seed)) return JSON.stringify(body).slice(0, -1) + ',"seed":' + seed.replace(/^0+(?=[0-9])/, "") + "}";
  // anything else as typed, a string the server names (Number() rounded 12345678901234567891e0 to
  // another seed, and made "abc" or 1e400 null, a random seed); none typed: a random seed
  return JSON.stringify(seed === "" ? body : {...body, seed});
}

function seerNote(box, seers) {
  // the bots that play on the whole state (serve --allow-seer): they see the visitor's hand and
  // every hidden card, so the page says so while the game runs; hidden when none does
  box.hidden = seers.length === 0;
  box.textContent = seers.length === 0 ? "" : `${seers.join(", ")} ${seers.length === 1 ? "sees" : "see"} the whole ` +
    "state: your hand and every hidden card (this server lets such bots play: serve --allow-seer).";
}
