//! The statistics of `bench` and `report`, small enough to check by hand:
//! the spread of repeated runs (hyperfine's habit of warning about it),
//! a bootstrap confidence interval for the speed ratio of two pairs, and
//! the Wilcoxon signed-rank test for paired times. Deterministic: the
//! bootstrap draws from a fixed seed, so a report is reproducible.

use serde::Serialize;

/// The median of sorted values (the mean of the middle two for an even
/// count); 0 for none.
pub fn median(sorted: &[f64]) -> f64 {
    middle(sorted).map_or(0.0, |(a, b)| (a + b) / 2.0)
}

/// The middle of sorted items: the middle one twice for an odd count, the
/// two middle ones for an even count, none for none. Every median of
/// `bench` and `report` is the mean of these two, so an even number of
/// repeats never silently takes one side.
pub fn middle<T>(sorted: &[T]) -> Option<(&T, &T)> {
    let n = sorted.len();
    Some((sorted.get((n.checked_sub(1)?) / 2)?, sorted.get(n / 2)?))
}

/// The spread of repeated measurements of one (puzzle, pair), in ms.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Spread {
    /// How many runs.
    pub n: usize,
    /// Their mean.
    pub mean_ms: f64,
    /// Their sample standard deviation (0 for one run).
    pub sd_ms: f64,
    /// The fastest.
    pub min_ms: f64,
    /// The median.
    pub median_ms: f64,
    /// The slowest.
    pub max_ms: f64,
}

impl Spread {
    /// A spread is large when σ is more than this share of the mean…
    pub const LARGE_CV: f64 = 0.25;
    /// …and more than this many milliseconds: below it, scheduler noise
    /// on a run of a few milliseconds is no finding.
    pub const LARGE_SD_MS: f64 = 5.0;

    /// The spread of `times` (at least one).
    pub fn of(times: &[f64]) -> Spread {
        let mut sorted = times.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let mean = sorted.iter().sum::<f64>() / n.max(1) as f64;
        let var = if n > 1 {
            sorted.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        Spread {
            n,
            mean_ms: mean,
            sd_ms: var.sqrt(),
            min_ms: sorted.first().copied().unwrap_or(0.0),
            median_ms: median(&sorted),
            max_ms: sorted.last().copied().unwrap_or(0.0),
        }
    }

    /// σ as a share of the mean.
    pub fn relative(&self) -> f64 {
        if self.mean_ms > 0.0 {
            self.sd_ms / self.mean_ms
        } else {
            0.0
        }
    }

    /// Whether the runs vary so much that their median is doubtful
    /// ([`Spread::LARGE_CV`] and [`Spread::LARGE_SD_MS`] both exceeded).
    pub fn is_large(&self) -> bool {
        self.relative() > Self::LARGE_CV && self.sd_ms > Self::LARGE_SD_MS
    }

    /// `12.3 ± 1.2 ms (min 11.0, median 12.1, max 14.9, 3 runs)`.
    pub fn describe(&self) -> String {
        format!(
            "{:.1} ± {:.1} ms (min {:.1}, median {:.1}, max {:.1}, {} runs)",
            self.mean_ms, self.sd_ms, self.min_ms, self.median_ms, self.max_ms, self.n
        )
    }
}

/// A fixed-seed generator (SplitMix64): the bootstrap must give the same
/// interval on every run of `report`.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// How many bootstrap resamples [`ratio`] draws.
pub const RESAMPLES: usize = 10_000;

/// How much faster `a` is than `b` over paired times (each > 0): the
/// geometric mean of the per-puzzle ratios `b / a`, with a 95 %
/// percentile-bootstrap interval over the puzzles. `None` for no pairs.
pub fn ratio(a: &[f64], b: &[f64]) -> Option<(f64, f64, f64)> {
    let logs: Vec<f64> = a
        .iter()
        .zip(b)
        .map(|(x, y)| (y.max(f64::MIN_POSITIVE) / x.max(f64::MIN_POSITIVE)).ln())
        .collect();
    let n = logs.len();
    if n == 0 {
        return None;
    }
    let point = (logs.iter().sum::<f64>() / n as f64).exp();
    let mut rng = Rng(0x5eed_5eed_5eed_5eed);
    let mut means: Vec<f64> = (0..RESAMPLES)
        .map(|_| (0..n).map(|_| logs[rng.below(n)]).sum::<f64>() / n as f64)
        .collect();
    means.sort_by(f64::total_cmp);
    let at = |q: f64| means[((q * RESAMPLES as f64) as usize).min(RESAMPLES - 1)].exp();
    Some((point, at(0.025), at(0.975)))
}

/// The result of a Wilcoxon signed-rank test.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Wilcoxon {
    /// Pairs with a non-zero difference (zeros are dropped, Wilcoxon's
    /// own rule).
    pub n: usize,
    /// The sum of the ranks of the positive differences.
    pub w_plus: f64,
    /// The two-sided p-value.
    pub p: f64,
    /// Whether `p` is exact (the permutation distribution of the ranks,
    /// ties included) or from the normal approximation (tie- and
    /// continuity-corrected) for more than [`EXACT_UP_TO`] pairs.
    pub exact: bool,
}

/// Up to how many pairs [`wilcoxon`] computes the exact distribution.
pub const EXACT_UP_TO: usize = 50;

/// Average ranks (from 1) of `values`, ties sharing the mean of their
/// ranks.
fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&i, &j| values[i].total_cmp(&values[j]));
    let mut r = vec![0.0; values.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && values[order[j + 1]] == values[order[i]] {
            j += 1;
        }
        for &k in &order[i..=j] {
            r[k] = (i + j) as f64 / 2.0 + 1.0;
        }
        i = j + 1;
    }
    r
}

/// The Wilcoxon signed-rank test of paired differences `d`: do they
/// centre on zero? `None` when every difference is zero.
pub fn wilcoxon(d: &[f64]) -> Option<Wilcoxon> {
    let d: Vec<f64> = d.iter().copied().filter(|x| *x != 0.0).collect();
    let n = d.len();
    if n == 0 {
        return None;
    }
    let r = ranks(&d.iter().map(|x| x.abs()).collect::<Vec<_>>());
    let w_plus: f64 = d
        .iter()
        .zip(&r)
        .filter(|(x, _)| **x > 0.0)
        .map(|(_, r)| r)
        .sum();
    let total = (n * (n + 1)) as f64 / 2.0;
    let t = w_plus.min(total - w_plus);
    if n <= EXACT_UP_TO {
        // Ranks are whole or half numbers: count in halves. Under the
        // null hypothesis each rank's sign is a fair coin.
        let halves: Vec<usize> = r.iter().map(|x| (x * 2.0).round() as usize).collect();
        let max: usize = halves.iter().sum();
        let mut ways = vec![0.0f64; max + 1];
        ways[0] = 1.0;
        for &h in &halves {
            for s in (h..=max).rev() {
                ways[s] += ways[s - h];
            }
        }
        let limit = (t * 2.0).round() as usize;
        let below: f64 = ways[..=limit].iter().sum();
        let p = (2.0 * below / 2f64.powi(n as i32)).min(1.0);
        return Some(Wilcoxon {
            n,
            w_plus,
            p,
            exact: true,
        });
    }
    let nf = n as f64;
    let mean = nf * (nf + 1.0) / 4.0;
    let mut abs: Vec<f64> = d.iter().map(|x| x.abs()).collect();
    abs.sort_by(f64::total_cmp);
    let mut ties = 0.0;
    let mut i = 0;
    while i < abs.len() {
        let j = abs[i..].iter().take_while(|x| **x == abs[i]).count();
        ties += (j * j * j - j) as f64;
        i += j;
    }
    let sd = (nf * (nf + 1.0) * (2.0 * nf + 1.0) / 24.0 - ties / 48.0).sqrt();
    let correction = 0.5 * (t - mean).signum() * f64::from(u8::from(t != mean));
    let z = (t - mean - correction) / sd;
    Some(Wilcoxon {
        n,
        w_plus,
        p: erfc(z.abs() / std::f64::consts::SQRT_2).min(1.0),
        exact: false,
    })
}

/// The complementary error function (Numerical Recipes' Chebyshev fit,
/// relative error below 1.2e-7: plenty for a p-value).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    // The fit's polynomial in t past its constant term, by Horner's rule
    // (written out as nested products, it took rustfmt 13 s to format).
    const C: [f64; 9] = [
        1.000_023_68,
        0.374_091_96,
        0.096_784_18,
        -0.186_288_06,
        0.278_868_07,
        -1.135_203_98,
        1.488_515_87,
        -0.822_152_23,
        0.170_872_77,
    ];
    let poly = C.iter().rev().fold(0.0, |acc, c| c + t * acc);
    let r = t * (-z * z - 1.265_512_23 + t * poly).exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// A p-value as a reader quotes it: `p < 0.001`, `p = 0.041`.
pub fn quote_p(p: f64) -> String {
    if p < 0.001 {
        "p < 0.001".into()
    } else {
        format!("p = {p:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_of_known_values() {
        let s = Spread::of(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert_eq!(s.n, 8);
        assert!((s.mean_ms - 5.0).abs() < 1e-12);
        // Sample variance 32/7.
        assert!((s.sd_ms - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
        assert_eq!((s.min_ms, s.median_ms, s.max_ms), (2.0, 4.5, 9.0));
        assert!(!s.is_large());
        assert!(Spread::of(&[100.0, 100.0, 300.0]).is_large());
        // Relatively large but a few milliseconds only: noise.
        assert!(!Spread::of(&[1.0, 1.0, 6.0]).is_large());
        assert_eq!(Spread::of(&[3.0]).sd_ms, 0.0);
    }

    #[test]
    fn wilcoxon_exact_matches_scipy() {
        // scipy.stats.wilcoxon's documented example: statistic 24,
        // p = 0.041259765625 (exact).
        let d = [
            6.0, 8.0, 14.0, 16.0, 23.0, 24.0, 28.0, 29.0, 41.0, -48.0, 49.0, 56.0, 60.0, -67.0,
            75.0,
        ];
        let w = wilcoxon(&d).expect("differences");
        assert!(w.exact);
        assert_eq!((w.n, w.w_plus), (15, 96.0));
        assert!((w.p - 0.041_259_765_625).abs() < 1e-12, "{}", w.p);
        // The sign does not change a two-sided test.
        let neg: Vec<f64> = d.iter().map(|x| -x).collect();
        assert!((wilcoxon(&neg).expect("differences").p - w.p).abs() < 1e-12);
    }

    #[test]
    fn wilcoxon_exact_equals_enumeration_with_ties() {
        let d = [1.0, -2.0, 2.0, 3.0, 3.0, -3.0, 4.0, 5.0, 0.0];
        let w = wilcoxon(&d).expect("differences");
        assert_eq!(w.n, 8);
        // Every sign assignment of the (tied) ranks.
        let r = ranks(&[1.0, 2.0, 2.0, 3.0, 3.0, 3.0, 4.0, 5.0]);
        let total: f64 = r.iter().sum();
        let t = w.w_plus.min(total - w.w_plus);
        let mut count = 0;
        for mask in 0u32..256 {
            let plus: f64 = (0..8).filter(|i| mask & (1 << i) != 0).map(|i| r[i]).sum();
            if plus <= t + 1e-9 {
                count += 1;
            }
        }
        assert!((w.p - (2.0 * count as f64 / 256.0).min(1.0)).abs() < 1e-12);
    }

    #[test]
    fn wilcoxon_normal_approximation_matches_scipy_formula() {
        // 60 differences with ties and zeros; scipy's tie- and
        // continuity-corrected approximation gives W+ = 1195.5,
        // z = -3.5700580, p = 0.000356902.
        let d: Vec<f64> = (1..=60).map(|i| f64::from((i * 7) % 13 - 4)).collect();
        let w = wilcoxon(&d).expect("differences");
        assert!(!w.exact);
        assert_eq!((w.n, w.w_plus), (55, 1195.5));
        assert!((w.p - 0.000_356_902_176_8).abs() < 1e-9, "{}", w.p);
        assert_eq!(quote_p(w.p), "p < 0.001");
        assert!(wilcoxon(&[0.0, 0.0]).is_none());
    }

    #[test]
    fn erfc_within_the_fits_error() {
        // erfc(0) = 1, erfc(0.5) = 0.4795001222, erfc(1) = 0.1572992071,
        // erfc(2) = 0.0046777350; erfc(-x) = 2 - erfc(x).
        for (x, want) in [
            (0.0, 1.0),
            (0.5, 0.479_500_122_2),
            (1.0, 0.157_299_207_1),
            (2.0, 0.004_677_735_0),
        ] {
            assert!((erfc(x) - want).abs() <= 1.2e-7 * want, "erfc({x})");
            assert!(
                (erfc(-x) - (2.0 - want)).abs() <= 1.2e-7 * 2.0,
                "erfc(-{x})"
            );
        }
    }

    #[test]
    fn ratio_and_its_interval() {
        // b is exactly 4× slower everywhere: no spread at all.
        let a = [1.0, 2.0, 3.0, 10.0];
        let b = [4.0, 8.0, 12.0, 40.0];
        let (r, lo, hi) = ratio(&a, &b).expect("pairs");
        assert!((r - 4.0).abs() < 1e-9 && (lo - 4.0).abs() < 1e-9 && (hi - 4.0).abs() < 1e-9);
        // Ratios 2 and 8: geometric mean 4, interval within [2, 8].
        let (r, lo, hi) = ratio(&[1.0, 1.0], &[2.0, 8.0]).expect("pairs");
        assert!((r - 4.0).abs() < 1e-9);
        assert!(lo >= 2.0 - 1e-9 && hi <= 8.0 + 1e-9 && lo < r && r < hi);
        assert_eq!(ratio(&[], &[]), None);
        // Fixed seed: the same interval every time.
        assert_eq!(
            ratio(&[1.0, 1.0], &[2.0, 8.0]),
            ratio(&[1.0, 1.0], &[2.0, 8.0])
        );
    }
}
