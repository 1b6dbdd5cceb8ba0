//! Natural ordering of names people number (`DIMM2` before `DIMM10`, `SLOT4` before
//! `SLOT10`), shared by the headroom probe and the spec sheet.

/// Sort key that puts `DIMM 2` before `DIMM 10`.
pub fn natural_key(s: &str) -> Vec<(String, u64)> {
    let mut key = Vec::new();
    let mut text = String::new();
    let mut num: Option<u64> = None;
    for c in s.chars() {
        if let Some(d) = c.to_digit(10) {
            num = Some(num.unwrap_or(0).saturating_mul(10).saturating_add(d as u64));
        } else {
            if let Some(v) = num.take() {
                key.push((std::mem::take(&mut text), v));
            }
            text.push(c.to_ascii_lowercase());
        }
    }
    key.push((text, num.unwrap_or(0)));
    key
}
