//! `rigcheck bench` results for people: the text table (measured next to theoretical, part by
//! part) and the measured-vs-peak bar chart the spec sheet shows.

use std::fmt::Write as _;
use std::io::{self, Write};

use crate::spec::bench::{BenchReport, GpuBench};
use crate::text::escape_markup as escape;
use crate::units::{bytes_bin, bytes_dec, fmt_rate};

/// Output formats of `bench`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BenchFormat {
    /// Readable text.
    Table,
    /// The inventory JSON with a `bench` section.
    Json,
}

/// Human table of a report, one block per part, measured next to theoretical; a line wider
/// than `width` (a note, a GPU's figures) is wrapped, its continuation indented.
pub fn write_table(r: &BenchReport, width: Option<usize>, out: &mut dyn Write) -> io::Result<()> {
    let mut text = Vec::new();
    write_lines(r, &mut text)?;
    let text = String::from_utf8_lossy(&text);
    for l in text.lines() {
        match width {
            Some(w) if textwrap::core::display_width(l) > w => {
                let indent = " ".repeat(l.len() - l.trim_start().len() + 2);
                let opts = textwrap::Options::new(w.max(indent.len() + 8))
                    .subsequent_indent(&indent)
                    // Whole words only: a serial --redact scrubs afterwards stays in one piece.
                    .break_words(false)
                    .word_splitter(textwrap::WordSplitter::NoHyphenation);
                for part in textwrap::wrap(l, opts) {
                    writeln!(out, "{}", part.trim_end())?;
                }
            }
            _ => writeln!(out, "{}", l.trim_end())?,
        }
    }
    Ok(())
}

fn write_lines(r: &BenchReport, out: &mut dyn Write) -> io::Result<()> {
    let opt = |v: Option<f64>, unit: &str| v.map_or("unknown".to_string(), |v| fmt_rate(v, unit));
    if let Some(c) = &r.cpu {
        writeln!(
            out,
            "CPU: decode {}x{} JPEG, random resized crop to {}x{}, flip, normalise to f32",
            c.image_width, c.image_height, c.crop_size, c.crop_size
        )?;
        writeln!(
            out,
            "  {:>7}  {:>12}  {:>8}",
            "threads", "images/s", "scaling"
        )?;
        for p in &c.points {
            writeln!(
                out,
                "  {:>7}  {:>12.1}  {:>7.2}x",
                p.threads, p.images_per_s, p.scaling
            )?;
        }
        let gpus = match c.gpus {
            0 => "no GPU found, counted as one".to_string(),
            n => format!("{n} GPU(s)"),
        };
        writeln!(
            out,
            "  suggested data-loader workers per GPU: {} ({gpus})",
            c.suggested_workers_per_gpu
        )?;
    }
    if let Some(m) = &r.memory {
        writeln!(
            out,
            "Memory: STREAM copy and triad, {} per array",
            bytes_bin(m.array_bytes)
        )?;
        for t in &m.results {
            writeln!(
                out,
                "  {:<6} {:>3} thread(s)  {:>12}",
                t.kernel,
                t.threads,
                fmt_rate(t.bytes_per_s, "B/s")
            )?;
        }
        writeln!(
            out,
            "  theoretical peak: {}",
            opt(m.peak_bytes_per_s.map(|v| v as f64), "B/s")
        )?;
    }
    if let Some(d) = &r.disk {
        writeln!(out, "Disk: sequential read of {}", d.path)?;
        writeln!(
            out,
            "  {} read in {:.2} s: {} ({})",
            bytes_dec(d.bytes_read),
            d.seconds,
            fmt_rate(d.bytes_per_s, "B/s"),
            if d.direct_io {
                "direct I/O"
            } else {
                "buffered"
            }
        )?;
        let drive = d.drive.as_deref().unwrap_or("unknown drive");
        writeln!(
            out,
            "  link allows: {} ({drive}, {})",
            opt(d.link_bytes_per_s.map(|v| v as f64), "B/s"),
            d.link.as_deref().unwrap_or("link unknown")
        )?;
    }
    if let Some(g) = &r.gpu {
        write_gpu(g, out)?;
    }
    for n in &r.notes {
        writeln!(out, "note: {}: {}", about(&n.field), n.reason)?;
    }
    Ok(())
}

/// A bench note's field in the words of the table above it (`bench.gpu.per_gpu[1]` → `GPU
/// 1`, as its row is labelled); JSON keeps the path.
fn about(field: &str) -> String {
    const NAMES: &[(&str, &str)] = &[
        ("bench.memory.peak_bytes_per_s", "Memory theoretical peak"),
        ("bench.memory", "Memory"),
        ("bench.cpu", "CPU"),
        ("bench.disk.direct_io", "Disk direct I/O"),
        ("bench.disk.link_bytes_per_s", "Disk link allowance"),
        ("bench.disk", "Disk"),
        ("bench.gpu.all_fp32_tflops", "All GPUs at once, FP32"),
        ("bench.gpu.all_fp16_tflops", "All GPUs at once, FP16"),
        ("bench.gpu.soak", "GPU soak"),
        ("bench.gpu", "GPU"),
    ];
    if let Some((_, w)) = NAMES.iter().find(|(k, _)| *k == field) {
        return (*w).to_string();
    }
    if let Some(rest) = field.strip_prefix("bench.gpu.per_gpu[") {
        if let Some((ordinal, _)) = rest.split_once(']') {
            return format!("GPU {ordinal}");
        }
    }
    // A field added later still reads as a path rather than vanishing.
    field.strip_prefix("bench.").unwrap_or(field).to_string()
}

/// The GPU block: matmul against the derived peak, then the soak.
fn write_gpu(g: &GpuBench, out: &mut dyn Write) -> io::Result<()> {
    let t = |v: Option<f64>| v.map_or("unknown".to_string(), |v| format!("{v:.1}"));
    writeln!(out, "GPU: matrix multiply, TFLOPS measured / derived peak")?;
    for m in &g.per_gpu {
        writeln!(
            out,
            "  GPU {} {}: FP32 {} / {}, FP16 {} / {} (n = {})",
            m.cuda_index,
            m.name.as_deref().unwrap_or("unknown"),
            t(m.fp32_tflops),
            t(m.fp32_peak_tflops),
            t(m.fp16_tflops),
            t(m.fp16_peak_tflops),
            m.n
        )?;
    }
    writeln!(
        out,
        "  all GPUs at once: FP32 {}, FP16 {}",
        t(g.all_fp32_tflops),
        t(g.all_fp16_tflops)
    )?;
    let o = |v: Option<u32>, u: &str| v.map_or("unknown".to_string(), |v| format!("{v} {u}"));
    for s in &g.soak {
        writeln!(
            out,
            "  soak {:.0} s, GPU {}: max {}, SM clock {}..{} (last {}), throttle: {}",
            g.soak_seconds,
            s.cuda_index,
            o(s.max_temperature_c, "°C"),
            o(s.min_sm_clock_mhz, "MHz"),
            o(s.max_sm_clock_mhz, "MHz"),
            o(s.last_sm_clock_mhz, "MHz"),
            if s.throttle_reasons.is_empty() {
                "none".to_string()
            } else {
                s.throttle_reasons.join(", ")
            }
        )?;
    }
    Ok(())
}

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
    // A figure that is not a finite, non-negative number (a hand-edited or damaged report,
    // a peak that overflowed) is drawn as unknown, never as a NaN or infinite bar.
    let drawable = |v: f64| v.is_finite() && v >= 0.0;
    for (i, b) in rows.iter().enumerate() {
        let y = 28 + ROW * i as u32;
        let measured = Some(b.measured).filter(|v| drawable(*v));
        let peak = b.peak.filter(|v| drawable(*v));
        let max = peak
            .unwrap_or(0.0)
            .max(measured.unwrap_or(0.0))
            .max(f64::MIN_POSITIVE);
        let _ = writeln!(
            s,
            r#"<text x="8" y="{}">{}</text>"#,
            y + 17,
            escape(&b.label)
        );
        if let Some(p) = peak {
            let pw = BAR * p / max;
            let _ = writeln!(
                s,
                r##"<rect x="{LABEL}" y="{}" width="{pw:.1}" height="22" fill="#c6dbef"/>"##,
                y + 2
            );
        }
        if let Some(m) = measured {
            let mw = BAR * m / max;
            let _ = writeln!(
                s,
                r##"<rect x="{LABEL}" y="{}" width="{mw:.1}" height="22" fill="#2171b5"/>"##,
                y + 2
            );
        }
        let text = match (measured, peak) {
            (None, _) => format!(
                "unknown {} (the report holds {}, not a measurement)",
                b.unit, b.measured
            ),
            (Some(m), Some(p)) if p > 0.0 => {
                format!("{m:.1} / {p:.1} {} ({:.0} %)", b.unit, 100.0 * m / p)
            }
            (Some(m), _) => format!("{m:.1} {} (peak unknown)", b.unit),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_figure_that_is_not_finite_is_drawn_as_unknown() {
        let r = BenchReport {
            disk: Some(crate::spec::bench::DiskBench {
                path: "/data/x".into(),
                temporary_file: true,
                file_bytes: 1 << 30,
                bytes_read: 1 << 30,
                seconds: 0.0,
                bytes_per_s: f64::NAN,
                block_bytes: 1 << 20,
                readers: 4,
                direct_io: true,
                drive: Some("nvme0n1".into()),
                link: None,
                link_bytes_per_s: Some(3_938_000_000),
            }),
            ..BenchReport::default()
        };
        let svg = chart_svg(&r);
        assert!(!svg.contains("width=\"NaN"), "{svg}");
        // The link's bar stays: it is a figure the report holds.
        assert!(svg.contains("width=\"300.0\""), "{svg}");
        assert!(
            svg.contains("unknown GB/s (the report holds NaN, not a measurement)"),
            "{svg}"
        );
    }
    use crate::spec::Note;

    #[test]
    fn notes_name_the_row_they_are_about_in_words() {
        let note = |field: &str, reason: &str| Note {
            field: field.into(),
            reason: reason.into(),
        };
        let report = BenchReport {
            seconds: 1.0,
            notes: vec![
                note(
                    "bench.memory.peak_bytes_per_s",
                    "no DIMM list (SMBIOS memory devices need root)",
                ),
                note("bench.gpu.per_gpu[1]", "out of memory at n = 8192"),
                note("bench.disk.direct_io", "O_DIRECT refused by tmpfs"),
                note("bench.newpart", "not measured"),
            ],
            ..Default::default()
        };
        let mut out = Vec::new();
        write_table(&report, Some(200), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let notes: Vec<&str> = text.lines().filter(|l| l.starts_with("note:")).collect();
        assert_eq!(
            notes,
            [
                "note: Memory theoretical peak: no DIMM list (SMBIOS memory devices need root)",
                "note: GPU 1: out of memory at n = 8192",
                "note: Disk direct I/O: O_DIRECT refused by tmpfs",
                "note: newpart: not measured",
            ]
        );
    }
}
