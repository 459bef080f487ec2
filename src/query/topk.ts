/**
 * The `k` best (place, score) pairs seen so far: a min-heap with the worst on
 * top, so each new candidate costs O(log k). Better means a higher score, then a
 * lower placeId.
 */
export class TopK {
  size = 0;
  readonly k: number;
  private item: Uint32Array;
  private score: Float64Array;
  private id: Float64Array;
  private km: Float64Array;

  constructor(k: number) {
    this.k = k;
    const cap = Math.min(k, 1024);
    this.item = new Uint32Array(cap);
    this.score = new Float64Array(cap);
    this.id = new Float64Array(cap);
    this.km = new Float64Array(cap);
  }

  /** The worst score kept, once full; -Infinity before. */
  get floor(): number {
    return this.size < this.k ? -Infinity : this.score[0];
  }

  /** Offers a candidate. */
  offer(item: number, score: number, id: number, km: number): void {
    if (this.size < this.k) {
      if (this.size === this.item.length) this.grow();
      const i = this.size++;
      this.set(i, item, score, id, km);
      this.up(i);
    } else if (this.better(score, id, this.score[0], this.id[0])) {
      this.set(0, item, score, id, km);
      this.down(0);
    }
  }

  /** The kept candidates, best first. */
  sorted(): { item: number; score: number; id: number; km: number }[] {
    const out = [];
    for (let i = 0; i < this.size; i++) out.push({ item: this.item[i], score: this.score[i], id: this.id[i], km: this.km[i] });
    return out.sort((a, b) => b.score - a.score || a.id - b.id);
  }

  private better(s: number, id: number, s2: number, id2: number): boolean {
    return s > s2 || (s === s2 && id < id2);
  }

  private set(i: number, item: number, score: number, id: number, km: number): void {
    this.item[i] = item; this.score[i] = score; this.id[i] = id; this.km[i] = km;
  }

  private up(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.better(this.score[p], this.id[p], this.score[i], this.id[i])) break;
      this.swap(i, p);
      i = p;
    }
  }

  private down(i: number): void {
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let m = i;
      if (l < this.size && this.better(this.score[m], this.id[m], this.score[l], this.id[l])) m = l;
      if (r < this.size && this.better(this.score[m], this.id[m], this.score[r], this.id[r])) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  private swap(i: number, j: number): void {
    const it = this.item[i]; this.item[i] = this.item[j]; this.item[j] = it;
    const s = this.score[i]; this.score[i] = this.score[j]; this.score[j] = s;
    const d = this.id[i]; this.id[i] = this.id[j]; this.id[j] = d;
    const k = this.km[i]; this.km[i] = this.km[j]; this.km[j] = k;
  }

  private grow(): void {
    const cap = this.item.length * 2;
    const item = new Uint32Array(cap); item.set(this.item); this.item = item;
    const score = new Float64Array(cap); score.set(this.score); this.score = score;
    const id = new Float64Array(cap); id.set(this.id); this.id = id;
    const km = new Float64Array(cap); km.set(this.km); this.km = km;
  }
}
