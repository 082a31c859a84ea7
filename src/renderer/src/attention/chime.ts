// The attention sound: two short soft tones made with Web Audio, so no sound file ships with the board.

let context: AudioContext | undefined;

export function playChime(): void {
  try {
    context ??= new AudioContext();
    const start = context.currentTime;
    for (const [offset, frequency] of [[0, 660], [0.14, 880]] as const) {
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + offset);
      gain.gain.exponentialRampToValueAtTime(0.12, start + offset + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.22);
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(start + offset);
      oscillator.stop(start + offset + 0.25);
    }
  } catch {
    // No audio output (or autoplay refused before the person touched the page): the title and notification remain.
  }
}
