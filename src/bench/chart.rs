//! Bench chart: measured vs theoretical as a small horizontal bar chart in SVG text, for the
//! spec sheet. Pure: a report in, text out; no fonts or files are read.

use std::fmt::Write;

use super::BenchReport;

/// One row of the chart: measured and, where known, theoretical, in the same unit.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    pub label: String,
    pub unit: &'static str,
    pub measured: f64,
    pub peak: Option<f64>,
}

/// Rows the chart shows: CPU scaling against linear, memory triad and disk read against
/// their peaks, GPU FP32/FP16 against the derived peaks.
pub fn bars(r: &BenchReport) -> Vec<Bar> {
    let mut v = Vec::new();
    if let Some(c) = &r.cpu {
        let one = c.points.first().map_or(0.0, |p| p.images_per_s);
        if let Some(p) = c.points.last() {
            v.push(Bar {
                label: format!("CPU images/s, {} threads", p.threads),
                unit: "img/s",
                measured: p.images_per_s,
                // Linear scaling of the one-thread rate is the ideal the curve is judged by.
                peak: Some(one * f64::from(p.threads)),
            });
        }
    }
    if let Some(m) = &r.memory {
        let best = m
            .results
            .iter()
            .filter(|t| t.kernel == "triad")
            .max_by(|a, b| a.bytes_per_s.total_cmp(&b.bytes_per_s));
        if let Some(t) = best {
            v.push(Bar {
                label: format!("Memory triad, {} threads", t.threads),
                unit: "GB/s",
                measured: t.bytes_per_s / 1e9,
                peak: m.peak_bytes_per_s.map(|p| p as f64 / 1e9),
            });
        }
    }
    if let Some(d) = &r.disk {
        v.push(Bar {
            label: format!("Disk read, {}", d.drive.as_deref().unwrap_or("drive")),
            unit: "GB/s",
            measured: d.bytes_per_s / 1e9,
            peak: d.link_bytes_per_s.map(|p| p as f64 / 1e9),
        });
    }
    if let Some(g) = &r.gpu {
        for m in &g.per_gpu {
            for (prec, got, peak) in [
                ("FP32", m.fp32_tflops, m.fp32_peak_tflops),
                ("FP16", m.fp16_tflops, m.fp16_peak_tflops),
            ] {
                if let Some(got) = got {
                    v.push(Bar {
                        label: format!("GPU {} {prec}", m.cuda_index),
                        unit: "TFLOPS",
                        measured: got,
                        peak,
                    });
                }
            }
        }
    }
    v
}

/// The chart as standalone SVG text: one row per `bars`, the theoretical bar pale behind the
/// measured one, each row scaled to its own maximum (units differ between rows).
pub fn chart_svg(r: &BenchReport) -> String {
    const W: u32 = 700;
    const ROW: u32 = 34;
    const LABEL: u32 = 190;
    const BAR: f64 = 300.0;
    let rows = bars(r);
    let h = 28 + ROW * rows.len().max(1) as u32;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{h}" viewBox="0 0 {W} {h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        s,
        r##"<text x="8" y="16" font-weight="bold">Measured (dark) vs theoretical (light)</text>"##
    );
    if rows.is_empty() {
        let _ = writeln!(s, r#"<text x="8" y="44">no benchmark results</text>"#);
    }
    for (i, b) in rows.iter().enumerate() {
        let y = 28 + ROW * i as u32;
        let max = b.peak.unwrap_or(0.0).max(b.measured).max(f64::MIN_POSITIVE);
        let mw = BAR * b.measured / max;
        let _ = writeln!(
            s,
            r#"<text x="8" y="{}">{}</text>"#,
            y + 17,
            escape(&b.label)
        );
        if let Some(p) = b.peak {
            let pw = BAR * p / max;
            let _ = writeln!(
                s,
                r##"<rect x="{LABEL}" y="{}" width="{pw:.1}" height="22" fill="#c6dbef"/>"##,
                y + 2
            );
        }
        let _ = writeln!(
            s,
            r##"<rect x="{LABEL}" y="{}" width="{mw:.1}" height="22" fill="#2171b5"/>"##,
            y + 2
        );
        let text = match b.peak {
            Some(p) if p > 0.0 => format!(
                "{:.1} / {:.1} {} ({:.0} %)",
                b.measured,
                p,
                b.unit,
                100.0 * b.measured / p
            ),
            _ => format!("{:.1} {} (peak unknown)", b.measured, b.unit),
        };
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}">{}</text>"#,
            LABEL + BAR as u32 + 6,
            y + 17,
            escape(&text)
        );
    }
    s.push_str("</svg>\n");
    s
}

fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
