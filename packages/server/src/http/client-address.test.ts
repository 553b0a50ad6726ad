import { describe, expect, it } from "vitest";
import { addressKey } from "./client-address.js";

describe("addressKey", () => {
  it("keeps IPv4, unwraps IPv4-mapped IPv6 and keys other IPv6 on the /64", async () => {
    expect(addressKey("127.0.0.1")).toBe("127.0.0.1");
    expect(addressKey("::ffff:127.0.0.2")).toBe("127.0.0.2");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("2001:DB8:0:0a::1")).toBe("2001:db8:0:a::/64");
    expect(addressKey("2001:db8::")).toBe("2001:db8:0:0::/64");
    expect(addressKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressKey("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(addressKey("64:ff9b::192.0.2.1")).toBe("64:ff9b:0:0::/64");
    expect(addressKey("not an address")).toBe("not an address");
  });
});
