/**
 * A cap on the websockets one client address holds open (issue 10): beyond it, an upgrade is
 * refused with 429, so one client cannot exhaust the server's sockets. Kept per process.
 */
export class SocketsPerAddress {
  private readonly open = new Map<string, number>();
  constructor(readonly max: number) {}

  /** Whether `address` may open another socket now. */
  hasRoom(address: string): boolean {
    return (this.open.get(address) ?? 0) < this.max;
  }

  /** Count a socket opened; false (nothing counted) when the address is at the cap. */
  opened(address: string): boolean {
    const n = this.open.get(address) ?? 0;
    if (n >= this.max) return false;
    this.open.set(address, n + 1);
    return true;
  }

  closed(address: string): void {
    const n = (this.open.get(address) ?? 0) - 1;
    if (n > 0) this.open.set(address, n);
    else this.open.delete(address);
  }
}
