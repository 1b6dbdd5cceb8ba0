//! What the order check, `diff` and the glance make of a GPU's identity (`Gpu::identity`,
//! established by the GPU probe): whether the GPU can be the model an order names, the
//! contradiction to report where NVML's name and the PCI ids disagree, and how to name a GPU
//! only known to be one of several boards.

use super::{Gpu, GpuIdentity};

/// `Quadro RTX 6000 or Quadro RTX 8000`, `A, B or C`.
pub fn either<S: AsRef<str>>(names: &[S]) -> String {
    match names {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [rest @ .., last] => {
            let rest: Vec<&str> = rest.iter().map(AsRef::as_ref).collect();
            format!("{} or {}", rest.join(", "), last.as_ref())
        }
    }
}

impl Gpu {
    /// The identity's certainty, where the probe recorded one.
    fn certainty(&self) -> Option<&str> {
        self.identity.as_ref().map(|d| d.certainty.as_str())
    }

    /// Whether this GPU is the model an order names, by `matches` on a product name:
    /// `Some(true)` or `Some(false)` where that is known, `None` where its name is unknown and
    /// nothing rules it in or out (no driver, and a PCI id shared by boards of which some
    /// match). A GPU whose NVML name contradicts its PCI ids matches when either side does: it
    /// belongs to the group, and its contradiction fails the group's lines.
    pub fn is_model(&self, matches: impl Fn(&str) -> bool) -> Option<bool> {
        let candidates = self
            .identity
            .as_ref()
            .map(|d| d.candidates.as_slice())
            .unwrap_or_default();
        if self.certainty() == Some(GpuIdentity::CONTRADICTED) {
            return Some(
                self.name.as_deref().is_some_and(&matches) || candidates.iter().any(|c| matches(c)),
            );
        }
        if let Some(n) = &self.name {
            return Some(matches(n));
        }
        let hits = candidates.iter().filter(|c| matches(c)).count();
        match (hits, candidates.len()) {
            (_, 0) => None,
            (0, _) => Some(false),
            (h, n) if h == n => Some(true),
            _ => None,
        }
    }

    /// Where NVML's name and the PCI ids contradict each other: what each says.
    pub fn identity_contradiction(&self) -> Option<&str> {
        self.identity
            .as_ref()
            .filter(|d| d.certainty == GpuIdentity::CONTRADICTED)
            .map(|d| d.detail.as_str())
    }

    /// The boards a GPU of unknown name may be (its PCI id is shared and nothing decides);
    /// empty where its name is known or its identity is not ambiguous.
    pub fn open_candidates(&self) -> &[String] {
        match &self.identity {
            Some(d) if self.name.is_none() && d.certainty == GpuIdentity::PCI_AMBIGUOUS => {
                &d.candidates
            }
            _ => &[],
        }
    }

    /// The name to show: the board's, else its candidates' (`Quadro T2000 or Quadro T2000
    /// with Max-Q Design`) where the PCI id allows several and nothing decides; `None` only
    /// where nothing names it.
    pub fn shown_name(&self) -> Option<String> {
        self.name.clone().or_else(|| self.candidates_name())
    }

    /// `Quadro RTX 6000 or Quadro RTX 8000`: the boards a GPU of unknown name may be.
    pub fn candidates_name(&self) -> Option<String> {
        let c = self.open_candidates();
        (!c.is_empty()).then(|| either(c))
    }

    /// True where one of the two names a board the other's PCI ids rule out (`same` compares
    /// product names): a GPU left ambiguous before the driver ("Quadro RTX 6000 or 8000") that
    /// the driver then names an A100 was replaced; one it names a Quadro RTX 8000 is unknown on
    /// one side, not a change.
    pub fn rules_out(&self, other: &Gpu, same: impl Fn(&str, &str) -> bool) -> bool {
        rules_out(
            (self.name.as_deref(), self.open_candidates()),
            (other.name.as_deref(), other.open_candidates()),
            same,
        )
    }
}

/// `Gpu::rules_out` on (name, open candidates) pairs, for views of a GPU that keep only those
/// (diff's compared facts).
pub fn rules_out(
    a: (Option<&str>, &[String]),
    b: (Option<&str>, &[String]),
    same: impl Fn(&str, &str) -> bool,
) -> bool {
    let excluded =
        |named: (Option<&str>, &[String]), open: (Option<&str>, &[String])| match (named.0, open.0)
        {
            (Some(n), None) => !open.1.is_empty() && !open.1.iter().any(|c| same(c, n)),
            _ => false,
        };
    excluded(a, b) || excluded(b, a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gpu(name: Option<&str>, certainty: &str, candidates: &[&str]) -> Gpu {
        Gpu {
            name: name.map(str::to_string),
            identity: Some(GpuIdentity {
                certainty: certainty.into(),
                candidates: candidates.iter().map(|c| (*c).to_string()).collect(),
                detail: "NVML names it 'Quadro RTX 6000', but PCI 10de:1e30 (subsystem \
                         10de:129e) is the Quadro RTX 8000"
                    .into(),
            }),
            ..Gpu::default()
        }
    }

    #[test]
    fn an_ambiguous_gpu_matches_only_what_all_its_candidates_match() {
        let g = gpu(
            None,
            GpuIdentity::PCI_AMBIGUOUS,
            &["Quadro RTX 6000", "Quadro RTX 8000"],
        );
        assert_eq!(g.is_model(|n| n.contains("RTX 8000")), None);
        assert_eq!(g.is_model(|n| n.contains("Quadro RTX")), Some(true));
        assert_eq!(g.is_model(|n| n.contains("A100")), Some(false));
        assert_eq!(
            g.candidates_name().as_deref(),
            Some("Quadro RTX 6000 or Quadro RTX 8000")
        );
        let same = |a: &str, b: &str| a == b;
        let named = gpu(Some("Quadro RTX 8000"), GpuIdentity::AGREE, &[]);
        assert!(!g.rules_out(&named, same));
        let other = gpu(Some("NVIDIA A100-SXM4-80GB"), GpuIdentity::AGREE, &[]);
        assert!(g.rules_out(&other, same) && other.rules_out(&g, same));
        // No identity and no name: unknown.
        assert_eq!(Gpu::default().is_model(|_| true), None);
        assert_eq!(either(&["A", "B", "C"]), "A, B or C");
    }

    #[test]
    fn a_contradicted_gpu_belongs_to_either_sides_group_and_says_why() {
        let g = gpu(
            Some("Quadro RTX 6000"),
            GpuIdentity::CONTRADICTED,
            &["Quadro RTX 8000"],
        );
        assert_eq!(g.is_model(|n| n.contains("RTX 8000")), Some(true));
        assert_eq!(g.is_model(|n| n.contains("RTX 6000")), Some(true));
        assert_eq!(g.is_model(|n| n.contains("A100")), Some(false));
        assert!(g
            .identity_contradiction()
            .is_some_and(|c| c.contains("Quadro RTX 8000")));
        let agreed = gpu(Some("Tesla T4"), GpuIdentity::AGREE, &[]);
        assert_eq!(agreed.identity_contradiction(), None);
    }
}
