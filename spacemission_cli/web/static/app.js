// The page: a new game, the board as your seat sees it, your moves as buttons, the bots' moves
// as they happen, undo, resign, the end summary; and the replay viewer. Everything shown comes
// from the JSON API (docs/play.md); the server builds it from your seat's own observation.
"use strict";

const params = new URLSearchParams(location.search);
const DELAY = Math.max(0, Number(params.get("delay") ?? 350));  // ms between the bots' moves as shown
let META = null, GAME = null, LOG = [], BUSY = false, SHOWN = null;  // SHOWN: the game id in the page
const $ = id => document.getElementById(id);

async function api(method, path, body, type = "application/json") {
  // every POST says its type, an empty body too: the server refuses (415) a POST that does not,
  // as a page of another site could send it without the browser asking the server first
  const options = {method, headers: {}};
  if (method === "POST") options.headers["Content-Type"] = type;
  if (body !== undefined) options.body = typeof body === "string" ? body : JSON.stringify(body);
  const response = await fetch(path, options).catch(err => { throw unreachable(err); });
  const data = await response.json().catch(() => ({error: `${response.status} ${response.statusText}`}));
  if (!response.ok) throw Object.assign(new Error(data.error || `${response.status}`), {status: response.status});
  return data;
}

function unreachable(err) {
  // fetch's own words ("Failed to fetch") do not tell a player what happened: no answer came
  return Object.assign(new Error(`cannot reach the server (${err.message}): it has stopped or the network is down; ` +
                                 "try again once it is back"), {network: true});
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

function node(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

const seatName = (q, names) => `${META.players.names[q]} (${names[q]})`;
const swatch = q => node("span", {class: "swatch", style: `background:${META.players.colours[q]}`});
const sleep = ms => new Promise(done => setTimeout(done, ms));

// --- the new-game form -----------------------------------------------------------------------
function fillForm() {
  const players = $("ng-players"), opp = $("ng-opponents"), rules = $("ng-rules");
  for (let n = META.players.min; n <= META.players.max; n++) players.append(node("option", {value: n}, String(n)));
  for (const spec of META.opponents) opp.append(node("option", {value: spec}, spec));
  for (const r of META.rules) rules.append(node("option", {value: r}, r));
  players.addEventListener("change", fillSeats);
  fillSeats();
}

function fillSeats() {
  const seat = $("ng-seat"), n = Number($("ng-players").value);
  seat.replaceChildren(node("option", {value: "random"}, "random"));
  for (let q = 0; q < n; q++) seat.append(node("option", {value: q}, `${q}: ${META.players.names[q]}`));
  seat.value = "0";
}

function formFrom(game) {
  // a resumed game's settings in the form (not its seed: "new game" deals another game)
  $("ng-players").value = String(game.players);
  fillSeats();
  $("ng-seat").value = String(game.seat);
  $("ng-rules").value = game.rules;
  const specs = new Set(game.names.filter((_, q) => q !== game.seat));
  const [spec] = specs;
  if (specs.size === 1 && META.opponents.includes(spec)) $("ng-opponents").value = spec;
}

async function startGame(event) {
  event.preventDefault();
  showError("");
  const seat = $("ng-seat").value;
  const body = withSeed({players: Number($("ng-players").value), opponents: $("ng-opponents").value,
                         rules: $("ng-rules").value, seat: seat === "random" ? "random" : Number(seat)},
                        $("ng-seed").value);
  let started = false;
  try {
    setBusy(true);
    $("ng-start").textContent = "Starting…";  // the bots play up to your first move: a slow one takes a while
    const from = location.hash;
    const game = await api("POST", "/api/games", body);
    // back (or forward) pressed to another game while this one started: the page shows the game
    // the address names now (followAddress, once no longer busy), the new one is left, as a page
    // left before its form's answer came (back to an address naming no game: the new game)
    if (location.hash !== from && /game=[\w-]+/.test(location.hash)) return;
    $("ng-start").textContent = "Start";
    started = true;
    LOG = [];
    $("log").replaceChildren();
    SHOWN = game.id;
    location.hash = `game=${game.id}`;
    $("new-game-box").open = false;
    await show(game);
  } catch (err) { showError(err.message); } finally { setBusy(false); $("ng-start").textContent = "Start"; }
  if (started) focusFirstMove(true);
}

// --- the game --------------------------------------------------------------------------------
async function openGame(id) {
  // a reload, a bookmark, back or forward: the game as it stands, its moves so far at once
  // (not replayed one by one with the bots' delay)
  if (BUSY) return;
  showError("");
  SHOWN = id;
  try {
    setBusy(true);
    const game = await api("GET", `/api/games/${id}?since=0`);
    if (game.game) throw new Error(`this is a ${game.title} game: its page is /play/${game.game}#game=${id}`);
    LOG = game.log.slice();
    formFrom(game);
    await show(game);
  } catch (err) {
    if (err.status === 404) lost(err.message); else showError(`${err.message}; start a new game`);
  } finally { setBusy(false); }
}

function lost(message) {
  // the game is gone (expired, or the server restarted): no dead board, the new-game form
  GAME = null;
  $("game").hidden = true;
  $("new-game-box").open = true;
  showError(`${message}; start a new game`);
}

async function refused(err) {
  // a refused move, undo or resign: the message stays, the game is read again and drawn as it
  // is now (another tab, or a retry, may have changed it: the old buttons would be stale)
  showError(err.message);
  if (err.status === 404) return lost(err.message);
  if (!GAME || (err.status !== 400 && err.status !== 409)) return;
  try {
    const game = await api("GET", `/api/games/${GAME.id}?since=0`);
    LOG = game.log.slice();
    renderLog(game);
    GAME = game;
    render(game);
  } catch (again) { if (again.status === 404) lost(again.message); }
}

function focusFirstMove(always) {
  // keyboard play: after a new game, or a move whose button the new moves replaced, the focus
  // goes to the first move, not to the page (Tab through everything again) or a hidden start
  // button; elsewhere (the log, a checkbox) it stays where the player put it
  const active = document.activeElement;
  if (!always && active && active !== document.body) return;
  // the game over: its "New game" button (the moves are gone; the focus would fall to the page)
  // (a top up: its first card to tick, then Tab on to the button)
  const first = document.querySelector("#moves .move:enabled, #moves input.discard:enabled") ||
    (GAME && GAME.over ? $("again") : null);
  if (first) first.focus({preventScroll: true});
}

function setBusy(busy) {
  BUSY = busy;
  document.querySelectorAll("#moves button, #moves input, #game-buttons button, #ng-start").forEach(b => {
    b.disabled = busy || (b.id === "undo" && !(GAME && GAME.can_undo));
  });
  if (!busy) setTimeout(followAddress);  // back or forward pressed while busy: that game now
}

function followAddress() {
  // the game the address names, when the page shows another (back and forward between games;
  // one pressed while the bots' moves were shown waits for them, as openGame does)
  const id = (location.hash.match(/game=([\w-]+)/) || [])[1];
  if (BUSY) return;
  if (id && id !== SHOWN) openGame(id);
  else if (!id && SHOWN) noGame();  // back to the page's first address: no game, as a reload of it shows
}

function noGame() {
  GAME = null;
  SHOWN = null;
  LOG = [];
  $("game").hidden = true;
  $("new-game-box").open = true;
  showError("");
}

async function show(game) {
  // the new log entries one at a time: the bots' moves as they happen
  const fresh = game.log.slice(Math.max(0, LOG.length - game.log_from));
  LOG = LOG.slice(0, game.log_from).concat(game.log.slice(0, game.log.length - fresh.length));
  renderLog(game);
  $("game").hidden = false;
  for (const entry of fresh) {
    LOG.push(entry);
    appendLog(entry, game.names);
    if (DELAY && entry.seat !== game.seat) await sleep(DELAY);
  }
  GAME = game;
  render(game);
}

function renderLog(game) {
  const list = $("log");
  list.replaceChildren();
  for (const entry of LOG) appendLog(entry, game.names);
}

function appendLog(entry, names) {
  const list = $("log");
  list.append(node("li", {class: "log-entry"}, swatch(entry.seat), `${seatName(entry.seat, names)}: ${entry.text}`));
  list.scrollTop = list.scrollHeight;
}

function render(game) {
  const view = game.view;
  drawBoard($("board"), game.over ? game.final.view : view, META);
  $("status").textContent = view.status;
  seerNote($("seer-note"), game.seers.map(q => seatName(q, game.names)));
  renderPlayers($("players"), game.over ? game.final.view : view, game.names, game.seat);
  renderMine(game);
  renderMoves(game);
  renderFinal(game);
  setBusy(BUSY);
}

function renderPlayers(box, view, names, me) {
  const table = node("table", {class: "players"},
    node("thead", {}, node("tr", {}, ...["player", "supply", "gate", "stations", "hand", "tiles", "points"]
      .map(h => node("th", {scope: "col"}, h)))));
  const body = node("tbody");
  for (const sv of [...view.seats].sort((a, b) => a.seat - b.seat)) {
    const acting = sv.seat === view.acting && !view.game_over;
    const points = sv.score ? String(sv.score.total) : `${sv.public_points} public`;
    body.append(node("tr", {class: acting ? "acting" : "", "data-seat": sv.seat},
      node("th", {scope: "row"}, swatch(sv.seat), (acting ? "▶ " : "") + seatName(sv.seat, names)),
      ...[sv.supply, sv.gate_probes, sv.stations, sv.hand_size, sv.collected, points].map(v => node("td", {}, String(v)))));
    body.append(node("tr", {class: "last-turn"}, node("td", {colspan: 7}, `last turn: ${sv.last_turn}`)));
  }
  table.append(body);
  box.replaceChildren(table);
}

function renderMine(game) {
  const view = game.view, box = $("mine");
  const me = view.seats.find(sv => sv.seat === game.seat);
  const parts = [];
  const hand = node("div", {id: "hand", role: "group", "aria-label": "your hand"}, node("strong", {}, "Your hand: "));
  for (const card of me.hand || []) hand.append(node("span", {class: "card"}, card));  // ticked in the moves' Top up
  parts.push(hand);
  parts.push(node("p", {id: "my-score"}, `Your tiles: ${me.collection_text} | ${game.over ? "final" : "provisional"} score ${me.score.total}`));
  const where = me.ship === null ? "the jump gate" : view.planets[me.ship].name;
  parts.push(node("p", {id: "ship-at"}, `Your ship is at ${where}.`));
  if (view.pile_seen_text !== null) parts.push(node("p", {class: "pile-seen"}, `The pile on ${where}: ${view.pile_seen_text}`));
  const reserved = view.planets.flatMap(pv => pv.reservations.filter(([q]) => q === game.seat).map(([, t]) => `${pv.name} ${t}`));
  if (reserved.length) parts.push(node("p", {}, `Your reserved tiles: ${reserved.join("; ")}`));
  if (view.reservation_types_hidden) {
    const probes = view.planets.flatMap(pv => pv.probes.filter(([q]) => q === game.seat).map(([, k]) => `${pv.name} ${k}`));
    if (probes.length) parts.push(node("p", {}, `Your probes (types not shown under schmidt, R-A4c): ${probes.join(", ")}`));
  }
  const looks = view.planets.filter(pv => pv.last_look);
  if (looks.length) {
    parts.push(node("p", {}, "Piles as you left them: " + looks.map(pv =>
      `${pv.name} (${pv.last_look.rounds_ago} round${pv.last_look.rounds_ago === 1 ? "" : "s"} ago): ${pv.last_look.pile}`).join("; ")));
  }
  parts.push(node("p", {id: "discard"}, `Discard pile (${view.discard_pile}): ${view.discard.join(" ") || "empty"}`));
  box.replaceChildren(...parts);
}

const KIND_TITLES = {tile: "Take a tile", discover: "Discover", develop: "Develop", scan: "Scan", jump: "Jump", fly: "Fly"};

function renderMoves(game) {
  const box = $("moves");
  box.replaceChildren();
  $("moves-box").hidden = game.over;
  $("moves-title").textContent = game.your_turn ? (game.view.pending ? "Choose your tile" : "Your moves")
                                                : "Waiting for the bots";
  const byKind = {};
  for (const m of game.moves) if (m.kind !== "top_up") (byKind[m.kind] = byKind[m.kind] || []).push(m);
  for (const [kind, moves] of Object.entries(byKind)) {
    const group = node("div", {class: "move-group", role: "group", "aria-label": KIND_TITLES[kind]},
                       node("h3", {}, KIND_TITLES[kind]));
    for (const m of moves) {
      group.append(node("button", {type: "button", class: "move", "data-action": m.action, "data-kind": m.kind,
                                   onclick: () => play(m.action)}, m.label));
    }
    box.append(group);
  }
  if (game.moves.some(m => m.kind === "top_up")) {  // one control, not every subset of the hand
    // the hand's cards to tick come before the button: Tab goes from the cards to it
    const me = game.view.seats.find(sv => sv.seat === game.seat);
    const cards = (me.hand || []).map(card => node("label", {class: "card"},
      node("input", {type: "checkbox", value: card, class: "discard"}), card));
    box.append(node("div", {class: "move-group", role: "group", "aria-label": "Top up"}, node("h3", {}, "Top up"),
      ...cards, node("button", {type: "button", id: "top-up", class: "move", "data-kind": "top_up", onclick: topUp},
                     "Top up: discard the ticked cards (none: keep all), draw to 5")));
  }
}

async function play(action) {
  if (BUSY || !GAME) return;
  showError("");
  try {
    setBusy(true);
    // a slow bot's answer takes a while: the page says what it waits for, not only greyed buttons
    $("moves-title").textContent = "Waiting for the bots…";
    await show(await api("POST", `/api/games/${GAME.id}/move`, {action, version: GAME.version}));
  } catch (err) {
    await refused(err);
    if (GAME) renderMoves(GAME);  // no answer came (the server stopped): the moves' title back
  } finally { setBusy(false); }
  focusFirstMove(false);
}

function topUp() {
  const ticked = [...document.querySelectorAll("#moves input.discard:checked")].map(i => i.value).sort();
  const move = GAME.moves.find(m => m.kind === "top_up" && [...m.cards].sort().join(" ") === ticked.join(" "));
  if (!move) { showError("no top up discards exactly those cards"); return; }
  play(move.action);
}

async function simple(what) {
  if (BUSY || !GAME) return;
  if (what === "resign" && !confirm("Resign this game?")) return;
  showError("");
  try {
    setBusy(true);
    // the version shown: undo takes back the last move this page shows, not another tab's since
    const game = await api("POST", `/api/games/${GAME.id}/${what}`, {version: GAME.version});
    LOG = LOG.slice(0, game.log_size);
    renderLog(game);
    GAME = game;
    render(game);
  } catch (err) { await refused(err); } finally { setBusy(false); }
  focusFirstMove(false);  // resign hid its button, an undo may have disabled its own
}

function renderFinal(game) {
  const box = $("final");
  box.hidden = !game.over;
  if (!game.over) return box.replaceChildren();
  const f = game.final, view = f.view, names = game.names;
  const head = f.failure ? `The game stopped: ${f.failure}` : f.resigned ? "You resigned." :
    `The game ended in round ${f.round}` + (f.round_limit ? " at the round limit (R-E3)." : " (R-E1).");
  const won = f.winners.map(q => seatName(q, names)).join(", ");
  // the total and the rank first: on a narrow panel the breakdown scrolls, the result does not
  const parts = ["total", ...f.score_parts.filter(p => p !== "total")];
  const table = node("table", {id: "scores"}, node("thead", {}, node("tr", {}, node("th", {}, "player"),
    ...parts.map(p => node("th", {scope: "col"}, p === "jump_gate" ? "gate" : p)).slice(0, 1), node("th", {}, "rank"),
    ...parts.slice(1).map(p => node("th", {scope: "col"}, p === "jump_gate" ? "gate" : p)))));
  const body = node("tbody");
  f.scores.forEach((sc, q) => body.append(node("tr", {"data-seat": q}, node("th", {scope: "row"}, swatch(q), seatName(q, names)),
    node("td", {class: "score-total"}, String(sc.total)), node("td", {class: "rank"}, String(f.ranks[q])),
    ...parts.slice(1).map(p => node("td", {class: `score-${p}`}, String(sc[p]))))));
  table.append(body);
  const everything = node("ul", {id: "revealed"});
  for (const sv of [...view.seats].sort((a, b) => a.seat - b.seat)) {
    everything.append(node("li", {}, `${seatName(sv.seat, names)}: hand ${(sv.hand || []).join(" ") || "-"}; tiles ${sv.collection_text}`));
  }
  for (const pv of view.planets) {
    const lost = pv.reservations.map(([q, t]) => `${META.players.names[q]} ${t}`).join("; ");
    everything.append(node("li", {}, `${pv.name}: pile ${pv.pile_text}` + (lost ? `; reservations lost: ${lost}` : "")));
  }
  box.replaceChildren(node("h2", {}, "Game over"), node("p", {}, head),
                      won ? node("p", {id: "winners"}, `Winner${f.winners.length > 1 ? "s" : ""}: ${won}`) : "",
                      // the seed is known once the game is over: a new game with it deals the same cards
                      game.seed === null || game.seed === undefined ? "" :
                        node("p", {id: "final-seed"}, `Seed ${game.seed}: a new game with this seed deals the same cards.`),
                      node("div", {class: "scroll"}, table), node("h3", {}, "Everything, face up"), everything,
                      node("button", {type: "button", id: "again", onclick: () => { $("new-game-box").open = true; $("ng-start").focus(); scrollTo(0, 0); }}, "New game"));
}

// --- replays ---------------------------------------------------------------------------------
// how a listed game's error reads, by its error_kind (replays.ERROR_LEADS); the first two replay in the terminal
const ERROR_LEADS = {other_game: "not shown on this page", too_long: "too long to step through here", replay: "does not replay"};
// want: the step asked for last, which the next step counts from (a key held down or a quick
// second click asks again before the first answer comes); asked: how many frames were asked for
let REPLAY = null;  // {rid, index, steps, seat, names, step, want, asked}

async function openLibrary(rid) {
  const listing = await api("GET", `/api/replays/${rid}`);
  $("replay-source").textContent = `${listing.name}: ${listing.games.length} game${listing.games.length === 1 ? "" : "s"}`;
  const list = $("replay-list");
  list.replaceChildren();
  for (const g of listing.games) {
    const text = `game ${g.game}: ${g.players} players, ${g.rules}, ${(g.agents || []).join(" vs ")}, ${g.steps} moves` +
      (g.unfinished ? " (unfinished)" : g.forfeited ? " (ended by a forfeit)" : g.totals ? `, scores ${g.totals.join("-")}` : "");
    list.append(node("li", {}, g.error ? `${text}: ${ERROR_LEADS[g.error_kind] || "does not replay"}: ${g.error}` :
      node("button", {type: "button", class: "replay-game", onclick: () => openReplay(rid, g)}, text)));
  }
}

async function openReplay(rid, g) {
  REPLAY = {rid, index: g.index, steps: g.steps, seat: null, names: g.agents, step: 0, want: 0, asked: 0};
  const seat = $("rp-seat");
  seat.replaceChildren(node("option", {value: ""}, "everyone (all cards)"));
  for (let q = 0; q < g.players; q++) seat.append(node("option", {value: q}, `${META.players.names[q]} (${(g.agents || [])[q] || q})`));
  $("rp-step").max = g.steps;
  $("replay-view").hidden = false;
  await replayTo(0);
}

async function replayTo(step) {
  if (!REPLAY) return;
  step = Math.max(0, Math.min(REPLAY.steps, step));
  const seat = REPLAY.seat === null ? "" : `&seat=${REPLAY.seat}`;
  const replay = REPLAY, ticket = ++replay.asked;
  replay.want = step;
  try {
    const f = await api("GET", `/api/replays/${REPLAY.rid}/${REPLAY.index}?step=${step}${seat}`);
    if (replay !== REPLAY || ticket !== replay.asked) return;  // a later step was asked for: its answer draws
    REPLAY.step = step;
    $("rp-step").value = step;
    $("rp-where").textContent = `move ${step} of ${f.steps}`;
    drawBoard($("rp-board"), f.view, META);
    $("rp-status").textContent = f.view.status;
    renderPlayers($("rp-players"), f.view, f.names, f.seat);
    const log = $("rp-log");
    log.replaceChildren(...f.log.slice(-12).map(e => node("li", {}, swatch(e.seat), `${seatName(e.seat, f.names)}: ${e.text}`)));
    $("rp-result").textContent = f.result ? (f.unfinished ? "Saved unfinished here." :
      f.forfeited ? "Ended here by a forfeit, before the final scoring (the forfeiting seat ranks last)." :
      `Final scores: ${f.result.scores.map((s, q) => `${META.players.names[q]} ${s.total}`).join(", ")}`) : "";
    showError("");
  } catch (err) {
    if (replay !== REPLAY || ticket !== replay.asked) return;
    replay.want = replay.step;  // the step shown stays the one counted from
    showError(err.message);
  }
}

async function upload() {
  const file = $("upload-file").files[0];
  if (!file) return;
  try {
    const text = await file.text();
    const listing = await api("POST", `/api/replays?name=${encodeURIComponent(file.name)}`, text, "application/x-ndjson");
    await openLibrary(listing.id);
    showError("");
  } catch (err) { showError(err.message); } finally {
    // the file picked again (fixed after a refusal, or changed on disk) is a change: the browser
    // fires none for the same file as before; the list and the message name the file read
    $("upload-file").value = "";
  }
}

function tab(which) {
  $("play-section").hidden = which !== "play";
  $("replay-section").hidden = which !== "replay";
  $("tab-play").setAttribute("aria-pressed", which === "play");
  $("tab-replay").setAttribute("aria-pressed", which === "replay");
}

// --- start -----------------------------------------------------------------------------------
async function init() {
  META = await api("GET", "/api/meta");
  fillForm();
  $("new-game").addEventListener("submit", startGame);
  $("undo").addEventListener("click", () => simple("undo"));
  $("resign").addEventListener("click", () => simple("resign"));
  $("tab-play").addEventListener("click", () => tab("play"));
  $("tab-replay").addEventListener("click", () => tab("replay"));
  $("upload-file").addEventListener("change", upload);
  $("rp-first").addEventListener("click", () => replayTo(0));
  $("rp-back").addEventListener("click", () => replayTo(REPLAY.want - 1));
  $("rp-next").addEventListener("click", () => replayTo(REPLAY.want + 1));
  $("rp-last").addEventListener("click", () => replayTo(REPLAY.steps));
  $("rp-step").addEventListener("change", e => replayTo(Number(e.target.value)));
  $("rp-seat").addEventListener("change", e => { REPLAY.seat = e.target.value === "" ? null : Number(e.target.value); replayTo(REPLAY.want); });
  document.addEventListener("keydown", e => {
    if ($("replay-section").hidden || !REPLAY || e.target.tagName === "INPUT" && e.target.type !== "range") return;
    // the keys step from the step asked for last; the slider's own step is not taken as well
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") e.preventDefault();
    if (e.key === "ArrowLeft") replayTo(REPLAY.want - 1);
    if (e.key === "ArrowRight") replayTo(REPLAY.want + 1);
  });
  if (META.replay) openLibrary(META.replay).catch(err => showError(err.message));
  const resume = location.hash.match(/game=([\w-]+)/);
  if (resume) await openGame(resume[1]);
  window.addEventListener("hashchange", followAddress);  // back and forward between games
  document.body.dataset.ready = "1";
}

init().catch(err => showError(err.network ? err.message : `the page could not start: ${err.message}`));
