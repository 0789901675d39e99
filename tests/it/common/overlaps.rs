//! The check that a picture's texts keep apart, shared by the picture
//! tests (tests/it/pictures.rs) and the element tests (tests/it/elements.rs,
//! which check every registered element's picture with it): no two texts,
//! clue boxes or signs come closer than [`GAP`], and none leaves the
//! picture. The boxes are those resvg draws: each text laid out in the
//! built-in font and measured by its glyphs' outlines, each clue box by
//! its rectangle, each sign by its stroked path.

use resvg::usvg;
use smtgrid::render::png::options;
use smtgrid::render::svg::CLEARANCE;

/// The least distance allowed between two items: the layout's clearance,
/// less a little for rounding to two decimals.
pub const GAP: f64 = CLEARANCE - 0.2;

/// A box in picture coordinates.
#[derive(Debug, Clone, Copy)]
pub struct Box2 {
    left: f64,
    top: f64,
    right: f64,
    bottom: f64,
}

impl Box2 {
    /// The box of `r`.
    pub fn of(r: usvg::Rect) -> Box2 {
        Box2 {
            left: f64::from(r.left()),
            top: f64::from(r.top()),
            right: f64::from(r.right()),
            bottom: f64::from(r.bottom()),
        }
    }
    /// Whether the two boxes come closer than `gap` on both axes.
    pub fn near(&self, o: &Box2, gap: f64) -> bool {
        self.left < o.right + gap
            && o.left < self.right + gap
            && self.top < o.bottom + gap
            && o.top < self.bottom + gap
    }
    fn inside(&self, o: &Box2, gap: f64) -> bool {
        self.left >= o.left + gap
            && self.right <= o.right - gap
            && self.top >= o.top + gap
            && self.bottom <= o.bottom - gap
    }
}

/// One thing that must keep clear of the others, named for messages.
#[derive(Debug)]
struct Item {
    name: String,
    at: Box2,
}

fn text_of(t: &usvg::Text) -> String {
    t.chunks().iter().map(|c| c.text()).collect()
}

/// The items of a group, recursively: each text by its ink; each clue
/// box (a group `clue-N`) by its rectangle, after checking that its text
/// lies inside it; each sign (a path `sign-N`) by its stroke.
fn collect(g: &usvg::Group, items: &mut Vec<Item>, texts: &mut usize) {
    for node in g.children() {
        match node {
            usvg::Node::Group(inner) if inner.id().starts_with("clue-") => {
                let rect = inner
                    .children()
                    .iter()
                    .find_map(|n| match n {
                        usvg::Node::Path(p) => Some(Box2::of(p.abs_bounding_box())),
                        _ => None,
                    })
                    .unwrap_or_else(|| panic!("{}: a clue box without its box", inner.id()));
                for n in inner.children() {
                    if let usvg::Node::Text(t) = n {
                        *texts += 1;
                        let ink = Box2::of(t.abs_stroke_bounding_box());
                        assert!(
                            ink.inside(&rect, 0.0),
                            "{:?} sticks out of its box: {ink:?} in {rect:?}",
                            text_of(t)
                        );
                        items.push(Item {
                            name: format!("box of clue {:?}", text_of(t)),
                            at: rect,
                        });
                    }
                }
            }
            usvg::Node::Group(inner) => collect(inner, items, texts),
            usvg::Node::Text(t) => {
                *texts += 1;
                items.push(Item {
                    name: format!("text {:?}", text_of(t)),
                    at: Box2::of(t.abs_stroke_bounding_box()),
                });
            }
            usvg::Node::Path(p) if p.id().starts_with("sign-") => items.push(Item {
                name: p.id().to_string(),
                at: Box2::of(p.abs_stroke_bounding_box()),
            }),
            _ => {}
        }
    }
}

/// Fails unless every text, clue box and sign of `picture` keeps [`GAP`]
/// from every other and from the picture's edge.
pub fn assert_clear(name: &str, picture: &str) {
    let tree = usvg::Tree::from_str(picture, &options())
        .unwrap_or_else(|e| panic!("{name}: not a picture resvg reads: {e}"));
    let mut items = Vec::new();
    let mut texts = 0;
    collect(tree.root(), &mut items, &mut texts);
    // A text resvg could not lay out would vanish from the tree unseen.
    assert_eq!(
        texts,
        picture.matches("<text").count(),
        "{name}: every text laid out"
    );
    let size = tree.size();
    let page = Box2 {
        left: 0.0,
        top: 0.0,
        right: f64::from(size.width()),
        bottom: f64::from(size.height()),
    };
    for it in &items {
        assert!(
            it.at.inside(&page, GAP),
            "{name}: {} leaves the picture: {:?} in {:?}",
            it.name,
            it.at,
            page
        );
    }
    // Sorted by left edge, each item is compared only with those that
    // start before it ends.
    items.sort_by(|a, b| a.at.left.total_cmp(&b.at.left));
    for (i, a) in items.iter().enumerate() {
        for b in items[i + 1..]
            .iter()
            .take_while(|b| b.at.left < a.at.right + GAP)
        {
            assert!(
                !a.at.near(&b.at, GAP),
                "{name}: {} {:?} and {} {:?} are closer than {GAP}",
                a.name,
                a.at,
                b.name,
                b.at
            );
        }
    }
}
