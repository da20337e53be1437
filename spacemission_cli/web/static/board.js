// The board in SVG: the same picture as spacemission_env.render's PNG (ring of planets in ring
// order, position 0 at the top, clockwise; each with its pile, name, coordinates, visit dots,
// station, probes and ships; the jump gate in the centre). Drawn from a view (a seat's own
// observation, decoded by the server), with the colours and sizes the server sends in /api/meta.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";

function el(name, attrs, text) {
  const node = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function drawBoard(svg, view, meta) {
  const L = meta.layout, C = meta.colours, P = meta.players.colours;
  const size = L.board, cx = size / 2, cy = size / 2, R = L.ring_radius, r = L.planet_radius;
  const xy = p => {
    const a = -Math.PI / 2 + 2 * Math.PI * p / L.ring_size;
    return [cx + R * Math.cos(a), cy + R * Math.sin(a)];
  };
  svg.replaceChildren();
  svg.appendChild(el("rect", {x: 0, y: 0, width: size, height: size, fill: C.background}));
  for (let p = 0; p < L.ring_size; p++) {
    const [x1, y1] = xy(p), [x2, y2] = xy((p + 1) % L.ring_size);
    svg.appendChild(el("line", {x1, y1, x2, y2, stroke: "#46466e", "stroke-width": 3}));
  }
  // the jump gate: probes per seat, ships on it
  const g = L.gate_radius;
  svg.appendChild(el("circle", {cx, cy, r: g, fill: C.gate, stroke: C.jump, "stroke-width": 4}));
  svg.appendChild(el("text", {x: cx, y: cy - 48, fill: C.text, "text-anchor": "middle", "font-size": 15}, "JUMP GATE"));
  const seats = [...view.seats].sort((a, b) => a.seat - b.seat);
  seats.forEach((sv, i) => {
    const y = cy - 30 + i * 17;
    svg.appendChild(el("rect", {x: cx - 55, y: y - 6, width: 12, height: 12, fill: P[sv.seat]}));
    svg.appendChild(el("text", {x: cx - 38, y: y + 5, fill: C.text, "font-size": 13},
                        `${sv.gate_probes} probe${sv.gate_probes === 1 ? "" : "s"}`));
  });
  const atGate = seats.filter(sv => sv.ship === null);
  atGate.forEach((sv, i) => ship(svg, cx - (atGate.length - 1) * 10 + i * 20, cy + 58, P[sv.seat], sv.seat, meta));
  for (const pv of view.planets) drawPlanet(svg, pv, xy(pv.position), r, [cx, cy], meta);
}

function ship(svg, x, y, colour, seat, meta) {
  const t = el("polygon", {points: `${x},${y - 9} ${x - 7},${y + 7} ${x + 7},${y + 7}`, fill: colour, stroke: "#fff",
                           class: "ship", "data-seat": seat});
  t.appendChild(el("title", {}, `${meta.players.names[seat]}'s ship`));
  svg.appendChild(t);
}

function drawPlanet(svg, pv, [x, y], r, [cx, cy], meta) {
  const C = meta.colours, P = meta.players.colours, planet = meta.planets[pv.planet];
  const group = el("g", {class: "planet", "data-position": pv.position});
  group.appendChild(el("title", {}, `#${pv.position} ${planet.name} (${planet.coords})`));
  group.appendChild(el("circle", {cx: x, cy: y, r, fill: planet.colour, stroke: "#fff", "stroke-width": 2}));
  if (pv.revealed) {  // R-V1: face-up space tiles on a dark band
    group.appendChild(el("rect", {x: x - 46, y: y - 40, width: 92, height: 19, rx: 5, fill: C.band}));
    group.appendChild(el("text", {x, y: y - 26, fill: C.text, "text-anchor": "middle", "font-size": 12},
                          `#${pv.position} ${pv.revealed_space} space up`));
  } else {
    group.appendChild(el("text", {x, y: y - 26, fill: "#14141e", "text-anchor": "middle", "font-size": 12},
                          `#${pv.position} pile ${pv.pile_size}`));
  }
  group.appendChild(el("text", {x, y: y - 4, fill: "#0a0a14", "text-anchor": "middle", "font-size": 14, "font-weight": "bold"},
                        planet.name));
  group.appendChild(el("rect", {x: x - 44, y: y + 6, width: 88, height: 20, rx: 5, fill: "#141628"}));
  const coords = el("text", {x, y: y + 21, "text-anchor": "middle", "font-size": 13});
  for (const [text, colour] of [[`J${planet.jump} `, C.jump], [`S${planet.scan} `, C.scan],
                                [`L${planet.landing[0]},${planet.landing[1]}`, C.landing]]) {
    coords.appendChild(el("tspan", {fill: colour}, text));
  }
  group.appendChild(coords);
  // R-I1 visits: a small dot per seat that has looked through this pile
  pv.visits.forEach(([q], i) => {
    const vx = x - (pv.visits.length - 1) * 6 + i * 12;
    group.appendChild(el("circle", {cx: vx, cy: y - 46, r: 4, fill: P[q], stroke: "#14141e"}));
  });
  const dx = x - cx, dy = y - cy, n = Math.hypot(dx, dy), ux = dx / n, uy = dy / n;
  if (pv.station !== null) {
    group.appendChild(el("rect", {x: x - 10, y: y + 30, width: 20, height: 20, fill: P[pv.station], stroke: "#fff", "stroke-width": 2}));
    group.appendChild(el("text", {x, y: y + 45, "text-anchor": "middle", "font-size": 12}, "S"));
  }
  pv.probes.forEach(([q, k], i) => {  // reservations by count: the board never shows their types
    const off = (i - (pv.probes.length - 1) / 2) * 22;
    const px = x + ux * (r + 16) - uy * off, py = y + uy * (r + 16) + ux * off;
    group.appendChild(el("circle", {cx: px, cy: py, r: 9, fill: P[q], stroke: "#fff"}));
    group.appendChild(el("text", {x: px, y: py + 4, "text-anchor": "middle", "font-size": 12}, String(k)));
  });
  svg.appendChild(group);
  pv.ships.forEach((q, i) => {
    const off = (i - (pv.ships.length - 1) / 2) * 18;
    ship(svg, x - ux * (r + 16) - uy * off, y - uy * (r + 16) + ux * off, P[q], q, meta);
  });
}
