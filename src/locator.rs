//! DIMM locators as firmware writes them (`CPU1_DIMM_A1`, `PROC 1 DIMM 3`, `P1-DIMMA1`,
//! `DIMM1_CPU2`, `A1`): which socket and channel they name, and the short form a diagram
//! prints. Pure text functions; the memory probe decides sockets with them.

/// Socket and channel a DIMM locator (or its bank locator) names, as written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SlotPlace {
    /// Socket number as written (0- or 1-based): `CPU0-DIMM1` → 0, `DIMM1_CPU2` → 2.
    pub socket: Option<u32>,
    /// Channel letter: `P1-DIMMA1` → A, `P0 CHANNEL B` → B.
    pub channel: Option<String>,
    /// A bare `A1`-style locator: the letter is a socket on multi-socket Dell servers
    /// (`A1..A12`, `B1..B12`) and a channel on one-socket boards; decided per machine.
    pub bare_letter: Option<String>,
}

/// Reads socket and channel from one locator string.
pub fn parse_place(locator: &str) -> SlotPlace {
    const KEYS: [&str; 5] = ["PROCESSOR", "SOCKET", "PROC", "CPU", "P"];
    let up = locator.to_ascii_uppercase();
    let tokens: Vec<&str> = up
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|t| !t.is_empty())
        .collect();
    let mut place = SlotPlace::default();
    let letter_digits = |t: &str| -> Option<String> {
        let mut cs = t.chars();
        let l = cs.next().filter(|c| c.is_ascii_alphabetic())?;
        let rest: String = cs.collect();
        (!rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit())).then(|| l.to_string())
    };
    for (i, tok) in tokens.iter().enumerate() {
        if place.socket.is_none() {
            for k in KEYS {
                if let Some(rest) = tok.strip_prefix(k) {
                    if !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit()) {
                        place.socket = rest.parse().ok();
                    } else if rest.is_empty() && k != "P" {
                        place.socket = tokens.get(i + 1).and_then(|n| n.parse().ok());
                    }
                    if place.socket.is_some() {
                        break;
                    }
                }
            }
        }
        if place.channel.is_none() {
            if let Some(rest) = tok.strip_prefix("CHANNEL") {
                place.channel = if rest.len() == 1 {
                    Some(rest.to_string())
                } else {
                    tokens
                        .get(i + 1)
                        .filter(|n| n.len() == 1 && n.chars().all(|c| c.is_ascii_alphabetic()))
                        .map(|n| n.to_string())
                };
            } else if let Some(rest) = tok.strip_prefix("DIMM") {
                // `DIMMA1` (Supermicro) or `DIMM_A1`: the letter is the channel.
                let cand = if rest.is_empty() {
                    tokens.get(i + 1).copied().unwrap_or("")
                } else {
                    rest
                };
                place.channel = letter_digits(cand);
            }
        }
    }
    if tokens.len() == 1 && place.socket.is_none() && place.channel.is_none() {
        place.bare_letter = letter_digits(tokens[0]);
    }
    place
}

/// The locator without its socket part and the word DIMM: `CPU1_DIMM_A1` → `A1`,
/// `PROC 1 DIMM 3` → `3`, `ChannelA-DIMM0` → `ChannelA 0`.
pub fn short_locator(locator: &str) -> String {
    let parts: Vec<&str> = locator
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|t| !t.is_empty())
        .collect();
    let mut kept = Vec::new();
    let mut skip_next = false;
    for (i, p) in parts.iter().enumerate() {
        if skip_next {
            skip_next = false;
            continue;
        }
        let up = p.to_ascii_uppercase();
        let is_socket = parse_place(p).socket.is_some()
            || (matches!(up.as_str(), "CPU" | "PROC" | "PROCESSOR" | "SOCKET")
                && parts.get(i + 1).is_some_and(|n| n.parse::<u32>().is_ok()));
        if is_socket {
            skip_next = parse_place(p).socket.is_none();
            continue;
        }
        let rest = up.strip_prefix("DIMM").map_or(p.len(), |r| r.len());
        kept.push(&p[p.len() - rest..]);
    }
    let s = kept
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let s = if s.is_empty() { locator.to_string() } else { s };
    if s.chars().count() > 16 {
        let tail: String = s.chars().skip(s.chars().count() - 15).collect();
        format!("…{tail}")
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_from_real_locators() {
        // HP Z8 G4 (linuxhw 22DCA49109A6): `CPU0-DIMM1`, bank `CPU0`.
        assert_eq!(parse_place("CPU0-DIMM1").socket, Some(0));
        assert_eq!(parse_place("CPU0-DIMM1").channel, None);
        // Dell Precision T7600: `DIMM1_CPU2`.
        assert_eq!(parse_place("DIMM1_CPU2").socket, Some(2));
        // ASRock Ryzen bank: `P0 CHANNEL A`; locator `DIMM 1` names nothing.
        let p = parse_place("P0 CHANNEL A");
        assert_eq!((p.socket, p.channel.as_deref()), (Some(0), Some("A")));
        assert_eq!(parse_place("DIMM 1"), SlotPlace::default());
        // Supermicro: `P1-DIMMA1` = socket 1, channel A.
        let p = parse_place("P1-DIMMA1");
        assert_eq!((p.socket, p.channel.as_deref()), (Some(1), Some("A")));
        // Dell R630: `B12` is a bare letter, decided per machine.
        assert_eq!(parse_place("B12").bare_letter.as_deref(), Some("B"));
        assert_eq!(parse_place("ChannelA-DIMM0").channel.as_deref(), Some("A"));
    }

    #[test]
    fn locators_name_their_socket() {
        assert_eq!(parse_place("CPU1_DIMM_A1").socket, Some(1));
        assert_eq!(parse_place("PROC 1 DIMM 3").socket, Some(1));
        assert_eq!(parse_place("P1-DIMMA1").socket, Some(1));
        assert_eq!(parse_place("CPU2 DIMM 4").socket, Some(2));
        // HP Z8 G4 dmidecode (linuxhw 22DCA49109A6): `CPU0-DIMM1`, bank `CPU0`.
        assert_eq!(parse_place("CPU0-DIMM1").socket, Some(0));
        // Dell Precision T7600 (libsmbios dump): `DIMM1_CPU2`.
        assert_eq!(parse_place("DIMM1_CPU2").socket, Some(2));
        // ASRock Ryzen bank locator: `P0 CHANNEL A`.
        assert_eq!(parse_place("P0 CHANNEL A").socket, Some(0));
        // OptiPlex 7050 and Dell R630 name no socket.
        assert_eq!(parse_place("DIMM1").socket, None);
        assert_eq!(parse_place("A1").socket, None);
        assert_eq!(parse_place("ChannelA-DIMM0").socket, None);
    }

    #[test]
    fn short_locators() {
        assert_eq!(short_locator("CPU1_DIMM_A1"), "A1");
        assert_eq!(short_locator("PROC 1 DIMM 3"), "3");
        assert_eq!(short_locator("P1-DIMMA1"), "A1");
        assert_eq!(short_locator("CPU0-DIMM12"), "12");
        assert_eq!(short_locator("DIMM1_CPU2"), "1");
        assert_eq!(short_locator("ChannelA-DIMM0"), "ChannelA 0");
    }
}
