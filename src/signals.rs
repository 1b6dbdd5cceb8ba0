//! Interrupts during work that leaves temporary files, or while a pager holds the terminal:
//! while a `Shield` is held, SIGINT, SIGTERM and SIGHUP are recorded instead of ending the
//! process, so the work can stop, remove what it wrote (or wait for the pager), and then end
//! the way the signal would have (`end_if_interrupted`).
//! Outside a shield these signals act as they do by default.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// The handlers, installed once for the life of the process.
struct Handlers {
    /// The signal that arrived while shielded; 0 while none did.
    caught: Arc<AtomicUsize>,
    /// True while no shield is held: the signal then takes its default action.
    default: Arc<AtomicBool>,
}

fn handlers() -> &'static Handlers {
    static H: OnceLock<Handlers> = OnceLock::new();
    H.get_or_init(|| {
        let h = Handlers {
            caught: Arc::new(AtomicUsize::new(0)),
            default: Arc::new(AtomicBool::new(true)),
        };
        for &sig in crate::sys::INTERRUPTS {
            // The default action goes first: when it runs, nothing else does.
            let _ = signal_hook::flag::register_conditional_default(sig, Arc::clone(&h.default));
            let _ = signal_hook::flag::register_usize(sig, Arc::clone(&h.caught), sig as usize);
        }
        h
    })
}

/// Held while temporary files exist; see the module documentation. Not nested.
pub struct Shield {
    handlers: &'static Handlers,
}

impl Shield {
    /// From now until the shield is dropped, SIGINT, SIGTERM and SIGHUP are recorded.
    pub fn raise() -> Shield {
        let handlers = handlers();
        handlers.caught.store(0, Ordering::SeqCst);
        handlers.default.store(false, Ordering::SeqCst);
        Shield { handlers }
    }

    /// True once one of the signals arrived: the work should stop and clean up.
    pub fn interrupted(&self) -> bool {
        self.handlers.caught.load(Ordering::SeqCst) != 0
    }

    /// Drops the shield; if a signal arrived, ends the process by it (exit status 128 + N,
    /// as if it had not been caught). Call it once the temporary files are gone.
    pub fn end_if_interrupted(self) {
        let sig = self.handlers.caught.load(Ordering::SeqCst);
        drop(self);
        if sig != 0 {
            let _ = signal_hook::low_level::emulate_default_handler(sig as i32);
        }
    }
}

impl Drop for Shield {
    fn drop(&mut self) {
        self.handlers.default.store(true, Ordering::SeqCst);
    }
}
