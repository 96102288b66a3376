// Move sounds, made with WebAudio on the spot (no audio files): a wooden knock for a move, a rattle
// for a roll, two notes when a game ends. Browsers start audio only after a gesture, so the first
// click or key press on the page wakes the audio context.
let context = null;

function audio() {
  if (!context) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    try { context = new Context(); } catch (e) { return null; }
  }
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}
let wanted = false;  // whether the page will play sounds: then the first gesture makes the context
for (const type of ["pointerdown", "keydown"]) window.addEventListener(type, () => { if (wanted || context) audio(); }, { capture: true });
/** Tell whether this page will play sounds (the audio context then starts with the next gesture). */
export function wantSound(on) { wanted = on; }

// a short burst of filtered noise: the knock of wood on wood
function knock(ctx, at, { freq = 1400, q = 3, gain = 0.5, length = 0.07 } = {}) {
  const samples = Math.ceil(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, samples, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < samples; i++) data[i] = (Math.random() * 2 - 1) * Math.pow(1 - i / samples, 4);
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass"; filter.frequency.value = freq; filter.Q.value = q;
  const level = ctx.createGain();
  level.gain.value = gain;
  source.connect(filter).connect(level).connect(ctx.destination);
  source.start(at);
}

function tone(ctx, at, freq, length, gain = 0.18) {
  const osc = ctx.createOscillator();
  osc.type = "triangle"; osc.frequency.value = freq;
  const level = ctx.createGain();
  level.gain.setValueAtTime(0.0001, at);
  level.gain.exponentialRampToValueAtTime(gain, at + 0.02);
  level.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(level).connect(ctx.destination);
  osc.start(at); osc.stop(at + length + 0.05);
}

const SOUNDS = {
  move(ctx, now) { knock(ctx, now, { freq: 1300 }); tone(ctx, now, 330, 0.09, 0.08); },
  place(ctx, now) { knock(ctx, now, { freq: 900, gain: 0.6 }); tone(ctx, now, 220, 0.12, 0.1); },
  roll(ctx, now) {
    let at = now;
    for (let i = 0; i < 6; i++) { knock(ctx, at, { freq: 2200 + Math.random() * 1200, q: 5, gain: 0.35, length: 0.04 }); at += 0.045 + Math.random() * 0.05; }
  },
  end(ctx, now) { tone(ctx, now, 523.25, 0.25); tone(ctx, now + 0.18, 783.99, 0.45); },
};

/** Play one of the sounds ("move", "place", "roll", "end"); says whether audio was there for it. */
export function playSound(name) {
  const ctx = audio();
  const make = SOUNDS[name] || SOUNDS.move;
  if (!ctx) return false;
  try { make(ctx, ctx.currentTime + 0.01); } catch (e) { return false; }
  return true;
}

// whether sounds are on: remembered apart for players and spectators (on and off by default)
export function soundOn(player) {
  const chosen = localStorage.getItem(`ludothek.sound.${player ? "player" : "spectator"}`);
  return chosen === null ? player : chosen === "on";
}
export function setSoundOn(player, on) {
  localStorage.setItem(`ludothek.sound.${player ? "player" : "spectator"}`, on ? "on" : "off");
  wanted = on;
  if (on) audio();
}
