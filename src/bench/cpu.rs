//! CPU benchmark: a data loader's augmentation pipeline (JPEG decode, random resized crop to
//! 256 × 256, horizontal flip, normalise to f32 CHW) run on 1, 2, 4 … N threads.
//!
//! Each thread works on its own stream of images, as data-loader worker processes do, so the
//! curve shows how many workers the CPU can feed. The test image is made here, not downloaded.

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub use crate::spec::bench::{CpuBench, CpuPoint};
use fast_image_resize::images::{Image, ImageRef};
use fast_image_resize::{FilterType, PixelType, ResizeAlg, ResizeOptions, Resizer};

use super::progress::Progress;
use super::rng::SplitMix;
use crate::rules::workers;
use crate::spec::Spec;

/// ImageNet channel means and standard deviations, as torchvision's `Normalize` uses them.
const MEAN: [f32; 3] = [0.485, 0.456, 0.406];
const STD: [f32; 3] = [0.229, 0.224, 0.225];

/// Sizes and durations of a CPU run.
#[derive(Debug, Clone)]
pub struct CpuParams {
    pub width: u32,
    pub height: u32,
    pub crop: u32,
    /// Thread counts to measure, in order.
    pub threads: Vec<u32>,
    /// The whole run, the test image's making included, shared among the thread counts.
    pub budget: Duration,
}

impl CpuParams {
    /// 1024 × 768 photo-like images on 1, 2, 4 … `max_threads`, sharing `budget`.
    pub fn for_budget(max_threads: usize, budget: Duration) -> Self {
        Self {
            width: 1024,
            height: 768,
            crop: 256,
            threads: thread_counts(max_threads as u32),
            budget,
        }
    }
}

/// 1, 2, 4 … up to `max`, and `max` itself when it is not a power of two.
pub fn thread_counts(max: u32) -> Vec<u32> {
    let max = max.max(1);
    let mut v: Vec<u32> = std::iter::successors(Some(1u32), |n| n.checked_mul(2))
        .take_while(|n| *n <= max)
        .collect();
    if v.last() != Some(&max) {
        v.push(max);
    }
    v
}

/// Measures the pipeline at each thread count of `params`, within `params.budget`: each
/// count's share ends at a fixed point, so a worker's last image past one share comes out of
/// the next, and the run ends at most one image per worker after the budget. The suggested
/// workers are preflight's rule (`rules::workers`) on the machine `spec` describes, with
/// the GPUs `visible_devices` (CUDA_VISIBLE_DEVICES) lets through.
pub fn run(
    params: &CpuParams,
    spec: &Spec,
    visible_devices: Option<&str>,
    progress: &Progress,
) -> CpuBench {
    let start = Instant::now();
    let jpeg = synthetic_jpeg(params.width, params.height);
    let ends = super::clock::shares(Instant::now(), start + params.budget, params.threads.len());
    let mut points: Vec<CpuPoint> = Vec::new();
    for (&t, &deadline) in params.threads.iter().zip(&ends) {
        progress.step(format!("cpu: {t} thread(s)"));
        let (images, seconds) = measure(&jpeg, params.crop, t, deadline);
        points.push(CpuPoint {
            threads: t,
            images,
            seconds,
            images_per_s: images as f64 / seconds.max(1e-9),
            scaling: 0.0,
        });
    }
    let base = points.first().map_or(0.0, |p| p.images_per_s);
    for p in &mut points {
        p.scaling = if base > 0.0 {
            p.images_per_s / base
        } else {
            0.0
        };
    }
    let gpus = workers::visible_gpus(spec, visible_devices);
    // Where the process limits are unknown (no affinity mask, no quota read), the CPUs the
    // run itself had: the most threads measured.
    let suggested = workers::for_spec(spec, visible_devices).unwrap_or_else(|| {
        let most = params.threads.iter().copied().max().unwrap_or(1);
        workers::per_process(f64::from(most), gpus)
    });
    CpuBench {
        image_width: params.width,
        image_height: params.height,
        jpeg_bytes: jpeg.len() as u64,
        crop_size: params.crop,
        suggested_workers_per_gpu: suggested,
        gpus,
        points,
    }
}

/// Runs `threads` workers until `deadline`; every worker finishes at least one image.
/// Returns images done and the seconds until the last worker stopped.
fn measure(jpeg: &[u8], crop: u32, threads: u32, deadline: Instant) -> (u64, f64) {
    let done = AtomicU64::new(0);
    let start = Instant::now();
    std::thread::scope(|s| {
        for t in 0..threads {
            let done = &done;
            s.spawn(move || {
                let mut rng = SplitMix::new(0x5EED ^ u64::from(t));
                let mut n = 0u64;
                loop {
                    if let Some(out) = augment(jpeg, crop, &mut rng) {
                        black_box(out);
                        n += 1;
                    }
                    if Instant::now() >= deadline {
                        break;
                    }
                }
                done.fetch_add(n, Ordering::Relaxed);
            });
        }
    });
    let seconds = start.elapsed().as_secs_f64();
    (done.load(Ordering::Relaxed), seconds)
}

/// One image through the pipeline: the normalised CHW tensor, or `None` if a step failed.
pub fn augment(jpeg: &[u8], crop: u32, rng: &mut SplitMix) -> Option<Vec<f32>> {
    let mut dec = zune_jpeg::JpegDecoder::new(zune_jpeg::zune_core::bytestream::ZCursor::new(jpeg));
    let rgb = dec.decode().ok()?;
    let (w, h) = dec.dimensions()?;
    let (w, h) = (w as u32, h as u32);
    let (x, y, cw, ch) = random_resized_crop(w, h, rng);
    let src = ImageRef::new(w, h, &rgb, PixelType::U8x3).ok()?;
    let mut dst = Image::new(crop, crop, PixelType::U8x3);
    let opts = ResizeOptions::new()
        .resize_alg(ResizeAlg::Convolution(FilterType::Bilinear))
        .crop(f64::from(x), f64::from(y), f64::from(cw), f64::from(ch));
    Resizer::new().resize(&src, &mut dst, &opts).ok()?;
    let flip = rng.next_f64() < 0.5;
    Some(normalise_chw(dst.buffer(), crop as usize, flip))
}

/// torchvision's `RandomResizedCrop` box: area 8–100 % of the image, aspect ratio log-uniform
/// in [3/4, 4/3], ten tries, then the centre crop of the nearest allowed aspect.
pub fn random_resized_crop(w: u32, h: u32, rng: &mut SplitMix) -> (u32, u32, u32, u32) {
    let area = f64::from(w) * f64::from(h);
    let (lo, hi) = ((3.0f64 / 4.0).ln(), (4.0f64 / 3.0).ln());
    for _ in 0..10 {
        let target = area * (0.08 + 0.92 * rng.next_f64());
        let ratio = (lo + (hi - lo) * rng.next_f64()).exp();
        let cw = (target * ratio).sqrt().round() as u32;
        let ch = (target / ratio).sqrt().round() as u32;
        if (1..=w).contains(&cw) && (1..=h).contains(&ch) {
            let x = (rng.next_f64() * f64::from(w - cw + 1)) as u32;
            let y = (rng.next_f64() * f64::from(h - ch + 1)) as u32;
            return (x.min(w - cw), y.min(h - ch), cw, ch);
        }
    }
    let ratio = f64::from(w) / f64::from(h);
    let (cw, ch) = if ratio < 3.0 / 4.0 {
        (w, (f64::from(w) / (3.0 / 4.0)).round() as u32)
    } else if ratio > 4.0 / 3.0 {
        ((f64::from(h) * 4.0 / 3.0).round() as u32, h)
    } else {
        (w, h)
    };
    let (cw, ch) = (cw.min(w), ch.min(h));
    ((w - cw) / 2, (h - ch) / 2, cw, ch)
}

/// Interleaved RGB bytes of a `size` × `size` image to planar f32, (x/255 − mean)/std per
/// channel, mirrored left–right when `flip`.
pub fn normalise_chw(rgb: &[u8], size: usize, flip: bool) -> Vec<f32> {
    let plane = size * size;
    let mut out = vec![0f32; 3 * plane];
    for y in 0..size {
        for x in 0..size {
            let sx = if flip { size - 1 - x } else { x };
            let s = (y * size + sx) * 3;
            for c in 0..3 {
                let v = f32::from(rgb.get(s + c).copied().unwrap_or(0)) / 255.0;
                out[c * plane + y * size + x] = (v - MEAN[c]) / STD[c];
            }
        }
    }
    out
}

/// A photo-like `w` × `h` RGB image (smooth gradients, soft blobs and sensor noise) encoded as
/// a quality-90 JPEG in memory, so decoding costs what a real photo's does.
pub fn synthetic_jpeg(w: u32, h: u32) -> Vec<u8> {
    let mut rng = SplitMix::new(2024);
    let mut px = Vec::with_capacity(w as usize * h as usize * 3);
    let (fw, fh) = (f64::from(w), f64::from(h));
    for y in 0..h {
        for x in 0..w {
            let (u, v) = (f64::from(x) / fw, f64::from(y) / fh);
            let blob = ((u * 9.0).sin() * (v * 7.0).cos() + 1.0) * 0.5;
            let base = [
                0.6 * u + 0.4 * blob,
                0.5 * v + 0.5 * (1.0 - blob),
                0.3 + 0.4 * (u * v).sqrt(),
            ];
            for c in base {
                let noise = (rng.next_f64() - 0.5) * 0.12;
                px.push(((c + noise).clamp(0.0, 1.0) * 255.0) as u8);
            }
        }
    }
    let mut out = Vec::new();
    let enc = jpeg_encoder::Encoder::new(&mut out, 90);
    // Sizes above 65535 cannot be JPEG; they fall back to an empty buffer, which the pipeline
    // then reports as zero images instead of panicking.
    let (Ok(w16), Ok(h16)) = (u16::try_from(w), u16::try_from(h)) else {
        return Vec::new();
    };
    if enc
        .encode(&px, w16, h16, jpeg_encoder::ColorType::Rgb)
        .is_err()
    {
        return Vec::new();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_counts_double_up_to_max() {
        assert_eq!(thread_counts(1), vec![1]);
        assert_eq!(thread_counts(2), vec![1, 2]);
        assert_eq!(thread_counts(6), vec![1, 2, 4, 6]);
        assert_eq!(thread_counts(72), vec![1, 2, 4, 8, 16, 32, 64, 72]);
    }

    #[test]
    fn crop_stays_inside_and_keeps_aspect_bounds() {
        let mut rng = SplitMix::new(1);
        for _ in 0..1000 {
            let (x, y, cw, ch) = random_resized_crop(1024, 768, &mut rng);
            assert!(x + cw <= 1024 && y + ch <= 768 && cw > 0 && ch > 0);
            let r = f64::from(cw) / f64::from(ch);
            assert!((0.74..=1.34).contains(&r), "ratio {r}");
        }
        // A strip too thin for any try falls back to the centre crop at ratio 4/3.
        assert_eq!(random_resized_crop(4000, 3, &mut rng), (1998, 0, 4, 3));
    }

    #[test]
    fn normalise_flips_and_scales() {
        // 2 × 2 image: left column white, right column black.
        let rgb = [255, 255, 255, 0, 0, 0, 255, 255, 255, 0, 0, 0];
        let plain = normalise_chw(&rgb, 2, false);
        let flipped = normalise_chw(&rgb, 2, true);
        let white_r = (1.0 - 0.485) / 0.229;
        assert!((plain[0] - white_r).abs() < 1e-5);
        assert!((flipped[1] - white_r).abs() < 1e-5);
        assert!((flipped[0] + 0.485 / 0.229).abs() < 1e-5);
    }

    #[test]
    fn synthetic_jpeg_decodes_to_its_size() {
        let jpeg = synthetic_jpeg(320, 240);
        assert_eq!(&jpeg[..2], &[0xFF, 0xD8]);
        let out = augment(&jpeg, 64, &mut SplitMix::new(3)).unwrap();
        assert_eq!(out.len(), 3 * 64 * 64);
        assert!(out.iter().all(|v| v.is_finite()));
    }
}
