//! Elements: one module per piece of puzzle meaning, each registered by one
//! line of `element_table!`. An element says everything about one kind of
//! statement a puzzle can carry (Latin rows and columns, boxes, cages, a
//! thermometer, kropki dots, …): how its TOML keys read and write, how it
//! comes in from f-puzzles and the Interactive Sudoku Solver, how it lowers
//! into the constraint model (each instance a statement with its origin, so
//! that `explain` can name it), and how it draws. A puzzle is a grid, its
//! givens and a list of elements ([`crate::puzzle::Puzzle`]); a kind is a
//! preset list of them ([`crate::kinds`]).
//!
//! Adding a constraint is one new module here and one line in the table at
//! the end of this file; docs/elements.md says exactly how.

use crate::error::InputError;
use crate::model::{CellId, Model};
use crate::render::marks::TextForm;
use crate::render::svg::{Layout, Svg};

pub mod givens;
pub mod grid_text;
pub mod kit;
pub mod line;
pub mod making;
pub mod marks;
pub mod outside;
pub mod whole_grid;

pub use kit::{Lowering, Says, TomlReader, TomlWriter};
pub use making::{Drawing, Making};

/// Where an element draws on an SVG picture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layer {
    /// Over the cell backgrounds, under the grid lines, clues and digits
    /// (thermometers, shaded cells).
    Under,
    /// Over the grid lines and clues, under the digits (kropki dots).
    Over,
    /// Over the thin cell lines, under the outer border and the clues:
    /// the thick lines that part boxes, regions and cages. Drawn in the
    /// registry's order backwards, so finer borders lie under coarser ones.
    Borders,
}

/// What an element read from a kind's grid keys before the grid was
/// known ([`ElementType::read_grid`]).
#[derive(Debug)]
pub struct GridRead<T> {
    /// The grid's rows and columns the keys imply.
    pub shape: (usize, usize),
    /// The givens, if the file has any: those the keys hold (a futoshiki
    /// grid's), or the file's `givens` ([`givens::read`]) where the
    /// element's checks go with them.
    pub givens: Option<givens::Values>,
    /// Where the grid is written (the givens' text, else the element's
    /// own), for a message about the grid as a whole.
    pub at: crate::error::Location,
    /// The element, or `None` where its [`ElementType::finish_grid`]
    /// makes it once the givens are checked (a killer's cages, whose
    /// clues come after the givens' repeats).
    pub element: Option<T>,
}

/// What an importer's hook says about a value it cannot take: the message
/// names what is wrong; the importer adds the file and line.
pub type HookError = String;

/// One kind of statement a puzzle can carry. An implementing type is one
/// instance (one thermometer, one kropki dot, the anti-knight rule); the
/// registry (`element_table!`) makes it a variant of [`Element`].
pub trait ElementType: Sized + Clone + std::fmt::Debug + PartialEq + Eq + 'static {
    /// The element's name, as docs and `explain` use it ("thermometer").
    const NAME: &'static str;
    /// The top-level TOML keys it reads; each key belongs to one element.
    /// Empty for the elements a kind's own grid keys make
    /// (see [`crate::kinds`]).
    const KEYS: &'static [&'static str];
    /// The f-puzzles JSON keys [`ElementType::from_fpuzzles`] reads.
    const FPUZZLES: &'static [&'static str] = &[];
    /// The Interactive Sudoku Solver constraint names
    /// [`ElementType::from_iss`] reads.
    const ISS: &'static [&'static str] = &[];
    /// One line for the docs: the TOML syntax and what it means.
    const DOC: &'static str;
    /// Whether the element is part of the grid f-puzzles writes itself
    /// (`import::fpuzzles::from_puzzle`: Latin rows and columns, boxes,
    /// regions, diagonals, cages), so [`ElementType::to_fpuzzles`] is
    /// never asked for it.
    const WRITTEN_WITH_GRID: bool = false;
    /// Whether a kind's own text grid shows the element (Latin rows and
    /// columns, boxes, regions, cages, futoshiki signs, skyscrapers
    /// clues, kakuro squares), so [`ElementType::text`] is never asked
    /// for it.
    const SHOWN_BY_TEXT_GRID: bool = false;
    /// Whether [`ElementType::holds_cell`] may say no (kakuro's clue
    /// squares): a cell list is checked against such elements alone, not
    /// every element read so far.
    const HAS_CLUE_SQUARES: bool = false;

    /// Reads the value of `key` (one of [`ElementType::KEYS`]) from a
    /// puzzle file whose grid is already known, checking it against the
    /// grid: errors name the file, line and column and the fix.
    fn read(key: &str, r: &TomlReader) -> Result<Vec<Self>, InputError> {
        Err(r.error_at_key(key, format!("`{key}` is not read by {}", Self::NAME)))
    }

    /// Step 1 of reading a kind's grid keys (see [`GridStep`]): reads
    /// the keys the element owns that fix the grid's size (a futoshiki's
    /// or a kakuro's `grid`, a jigsaw's `regions`, a killer's `cages`
    /// grid), for a kind whose preset holds the element, before the grid
    /// is known (`r.rows` and `r.cols` are 0): the shape they imply, the
    /// givens and the element. `None` for an element that fixes no grid.
    /// An element that fixes the grid of a kind with `givens` reads them
    /// ([`givens::read`]) at the point of its checks where they come.
    fn read_grid(_r: &TomlReader) -> Result<Option<GridRead<Self>>, InputError> {
        Ok(None)
    }

    /// Step 2 of reading a kind's grid keys ([`GridStep`]): with the
    /// grid's size known (`r.rows`), the keys read against it alone (a
    /// sudoku's `box`), before any given is checked against a house. `at`
    /// is where the grid is written ([`GridRead::at`]).
    fn read_sized(
        _r: &TomlReader,
        _at: &crate::error::Location,
    ) -> Result<Option<Self>, InputError> {
        Ok(None)
    }

    /// Step 3 of reading a kind's grid keys ([`GridStep`]): checks the
    /// givens against the houses the element states (Latin: rows and
    /// columns; boxes; regions), `r.elements` holding the elements the
    /// steps made so far, and makes the element if its
    /// [`ElementType::read_grid`] left it (a killer's cages, from their
    /// `[clues]`; the skyscrapers edges, counted against the grid).
    fn finish_grid(
        _r: &TomlReader,
        _givens: Option<&givens::Values>,
    ) -> Result<Option<Self>, InputError> {
        Ok(None)
    }

    /// Why the instances of the element in a puzzle (`all` is never
    /// empty) cannot be on a `size`×`size` grid. A puzzle file's
    /// [`ElementType::read`] makes these checks at each table, to point at
    /// it; [`check_all`] makes them again on whatever every reader made
    /// (importers' hooks, `--line` meanings, `--with`), so that no reader
    /// lets in what another refuses, and lowering, drawing and writing
    /// meet only instances that pass. By default none.
    fn check(_all: &[&Self], _size: usize) -> Result<(), HookError> {
        Ok(())
    }

    /// Writes every instance of the element in a puzzle (`all` is never
    /// empty) as TOML that [`ElementType::read`] reads back.
    fn write(_all: &[&Self], _w: &mut TomlWriter) {}

    /// Writes what the element holds under the kind's grid key `key`, at
    /// that key's place in the kind's key order (`all` is never empty):
    /// by default the whole element ([`ElementType::write`]) at the first
    /// of its [`ElementType::KEYS`]. An element whose keys fall at several
    /// places of a kind's order (a killer's `distinct-cages` comes before
    /// the givens, its `cages` after the solution), or whose key is shared
    /// by kinds (`grid`: futoshiki's signs, kakuro's squares), writes each
    /// here instead.
    fn write_key(key: &str, all: &[&Self], w: &mut TomlWriter) {
        if Self::KEYS.first() == Some(&key) {
            Self::write(all, w);
        }
    }

    /// Reads the value of f-puzzles key `key` (one of
    /// [`ElementType::FPUZZLES`]) for a `size`×`size` grid.
    fn from_fpuzzles(
        key: &str,
        _value: &serde_json::Value,
        _size: usize,
    ) -> Result<Vec<Self>, HookError> {
        Err(format!("{} does not read f-puzzles' `{key}`", Self::NAME))
    }

    /// Writes every instance of the element in a puzzle (`all` is never
    /// empty) into the top level of f-puzzles JSON under its f-puzzles
    /// keys, or says why it has no f-puzzles form.
    fn to_fpuzzles(
        _all: &[&Self],
        _top: &mut serde_json::Map<String, serde_json::Value>,
    ) -> Result<(), HookError> {
        Err(format!("{} has no f-puzzles form here", Self::NAME))
    }

    /// Reads one ISS constraint `name` (one of [`ElementType::ISS`]) with
    /// its `~`-separated arguments for a `size`×`size` grid.
    fn from_iss(name: &str, _args: &[&str], _size: usize) -> Result<Vec<Self>, HookError> {
        Err(format!("{} does not read ISS's `{name}`", Self::NAME))
    }

    /// Whether this instance is a rule a puzzle has or has not (anti-knight,
    /// one diagonal, a negative constraint): a second one equal to it says
    /// nothing more, so [`crate::puzzle::Puzzle::add`] keeps one, however
    /// often a reader meets it (ISS's `.AntiKnight` thousands of times).
    fn is_flag(&self) -> bool {
        false
    }

    /// What the instance alone says its one cell may hold on an `n`-value
    /// grid (an odd mark, a cell's candidates), so that statements leaving
    /// a cell no value are refused, by every reader
    /// ([`marks::first_clash`]); `None` by default.
    fn holds(&self, _n: usize) -> Option<marks::Holds> {
        None
    }

    /// Whether the square (`row`, `col`) holds a cell to fill (kakuro's
    /// clue squares do not).
    fn holds_cell(&self, _row: usize, _col: usize) -> bool {
        true
    }

    /// The largest value a cell holds, if the element decides it (kakuro:
    /// 9); otherwise the grid's side.
    fn max_value(&self) -> Option<i64> {
        None
    }

    /// The square around the grid it draws in (a clue outside it), which
    /// pictures then leave room for, and which way it leans where the
    /// square is shared (−1 to the left or top, 1 to the right or bottom,
    /// 0 either): [`crate::render::svg::Layout::clue_room`] gives its
    /// part of the square.
    fn outside(&self) -> Option<(outside::Square, i8)> {
        None
    }

    /// Lowers this instance, the `index`-th (from 1) of its element in the
    /// puzzle, into the model: each statement begun with
    /// [`Lowering::begin`], its rules pushed with [`Lowering::push`].
    fn lower(&self, index: usize, l: &mut Lowering);

    /// Draws this instance on `layer` of an SVG picture.
    fn draw(&self, _layer: Layer, _layout: &Layout, _s: &mut Svg) {}

    /// How this instance, the `index`-th (from 1) of its element, shows on
    /// a text grid: marks where a terminal can show them
    /// ([`TextForm::between`], [`TextForm::cell`]), a line under the grid
    /// ([`TextForm::note`]) for what it cannot. By default a line naming
    /// the instance, so that nothing on a puzzle is left out unsaid; the
    /// elements a kind's own grid shows (givens' houses, cages, signs,
    /// edge clues, kakuro squares) add nothing.
    fn text(&self, index: usize, t: &mut TextForm) {
        t.note(format!("{} {index}", Self::NAME));
    }

    /// A clue this instance writes in the top-left corner of a cell, as a
    /// killer cage's sum: (the cell, the text). The picture keeps a band
    /// for such clues at the top of every cell and draws each in a white
    /// box there, as it does a killer's cage clues, so no digit touches it.
    fn corner_clue(&self) -> Option<((usize, usize), String)> {
        None
    }

    /// How `smtgrid generate --with` makes the element: by default it
    /// cannot ([`Making::No`]), and `--with` names the elements that can.
    fn making() -> Making<Self> {
        Making::No
    }
}

/// How an element type is found from an [`Element`] (made by the table).
pub trait Member: ElementType {
    /// The instance, if `e` is one of this element.
    fn of(e: &Element) -> Option<&Self>;
    /// The instance, if `e` is one of this element.
    fn of_mut(e: &mut Element) -> Option<&mut Self>;
    /// This instance as an [`Element`].
    fn into_element(self) -> Element;
}

/// An f-puzzles hook as the registry holds it.
pub type FpuzzlesHook = fn(&str, &serde_json::Value, usize) -> Result<Vec<Element>, HookError>;
/// An ISS hook as the registry holds it.
pub type IssHook = fn(&str, &[&str], usize) -> Result<Vec<Element>, HookError>;

/// One registered element type, as the parser, writer, importers and docs
/// see it.
pub struct Entry {
    /// [`ElementType::NAME`].
    pub name: &'static str,
    /// [`ElementType::KEYS`].
    pub keys: &'static [&'static str],
    /// [`ElementType::FPUZZLES`].
    pub fpuzzles: &'static [&'static str],
    /// [`ElementType::ISS`].
    pub iss: &'static [&'static str],
    /// [`ElementType::DOC`].
    pub doc: &'static str,
    /// [`ElementType::read`], instances as [`Element`]s.
    pub read: fn(&str, &TomlReader) -> Result<Vec<Element>, InputError>,
    /// [`ElementType::read_grid`], the instance as an [`Element`].
    pub read_grid: GridReader,
    /// [`ElementType::read_sized`], the instance as an [`Element`].
    pub read_sized: fn(&TomlReader, &crate::error::Location) -> Result<Option<Element>, InputError>,
    /// [`ElementType::finish_grid`], the instance as an [`Element`].
    pub finish_grid:
        fn(&TomlReader, Option<&givens::Values>) -> Result<Option<Element>, InputError>,
    /// [`ElementType::check`] of this element's instances among `all`
    /// (nothing if there are none).
    pub check: fn(&[Element], usize) -> Result<(), HookError>,
    /// [`ElementType::write`] of this element's instances among `all`
    /// (nothing if there are none).
    pub write: fn(&[Element], &mut TomlWriter),
    /// [`ElementType::write_key`] of this element's instances among `all`
    /// (nothing if there are none).
    pub write_key: fn(&str, &[Element], &mut TomlWriter),
    /// [`ElementType::from_fpuzzles`].
    pub from_fpuzzles: FpuzzlesHook,
    /// [`ElementType::from_iss`].
    pub from_iss: IssHook,
    /// [`ElementType::to_fpuzzles`] of this element's instances among
    /// `all` (nothing if there are none, or if the element is
    /// [`ElementType::WRITTEN_WITH_GRID`]).
    pub to_fpuzzles: FpuzzlesWriter,
    /// [`ElementType::making`], instances as [`Element`]s.
    pub making: fn() -> Making<Element>,
}

/// A pre-grid reader ([`ElementType::read_grid`]) as the registry holds it.
pub type GridReader = fn(&TomlReader) -> Result<Option<GridRead<Element>>, InputError>;

/// The steps in which `parse` reads a kind's grid keys (those that make
/// the grid: [`crate::kinds::makes_grid`]), before the solution and any
/// element's [`ElementType::read`] hook. Each step runs over the kind's
/// preset elements ([`crate::kinds::preset`]) in the registry's order, so
/// the order of checks, and so the first error a file shows, follows from
/// these steps and that order alone: a killer's givens, its cages grid's
/// shape and the two sizes (step 1, cages), its box shape (step 2,
/// boxes), the givens' repeats in rows and columns, then boxes (step 3,
/// latin, boxes), then its clues (step 3, cages).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GridStep {
    /// [`ElementType::read_grid`]: the keys that fix the grid's size;
    /// where no element does, the givens fix it.
    Size,
    /// [`ElementType::read_sized`]: the keys read against the size alone.
    Sized,
    /// [`ElementType::finish_grid`]: the givens against every house, and
    /// the elements left until then.
    Finish,
}

/// An f-puzzles writer as the registry holds it.
pub type FpuzzlesWriter =
    fn(&[Element], &mut serde_json::Map<String, serde_json::Value>) -> Result<(), HookError>;

/// The element registry: each line `module::Type` declares the module
/// `src/elements/module.rs`, makes `Type` (an [`ElementType`]) a variant of
/// [`Element`] and an [`Entry`] of [`REGISTRY`]. The order of the lines is
/// the order in which a puzzle's elements lower (and so the order of a
/// script's sections) and are written.
macro_rules! element_table {
    ($($module:ident :: $ty:ident),+ $(,)?) => {
        $(pub mod $module;)+

        /// One instance of an element in a puzzle.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum Element {
            $(
                #[doc = concat!("See [`", stringify!($module), "::", stringify!($ty), "`].")]
                $ty($module::$ty),
            )+
        }

        $(
            impl Member for $module::$ty {
                fn of(e: &Element) -> Option<&Self> {
                    match e {
                        Element::$ty(x) => Some(x),
                        #[allow(unreachable_patterns)]
                        _ => None,
                    }
                }
                fn of_mut(e: &mut Element) -> Option<&mut Self> {
                    match e {
                        Element::$ty(x) => Some(x),
                        #[allow(unreachable_patterns)]
                        _ => None,
                    }
                }
                fn into_element(self) -> Element {
                    Element::$ty(self)
                }
            }
        )+

        /// Every element type, in the table's order.
        pub const REGISTRY: &[Entry] = &[$(
            Entry {
                name: <$module::$ty as ElementType>::NAME,
                keys: <$module::$ty as ElementType>::KEYS,
                fpuzzles: <$module::$ty as ElementType>::FPUZZLES,
                iss: <$module::$ty as ElementType>::ISS,
                doc: <$module::$ty as ElementType>::DOC,
                read: |key, r| {
                    Ok(<$module::$ty as ElementType>::read(key, r)?
                        .into_iter()
                        .map(Element::$ty)
                        .collect())
                },
                read_grid: |r| {
                    Ok(<$module::$ty as ElementType>::read_grid(r)?.map(|g| GridRead {
                        shape: g.shape,
                        givens: g.givens,
                        at: g.at,
                        element: g.element.map(Element::$ty),
                    }))
                },
                read_sized: |r, at| {
                    Ok(<$module::$ty as ElementType>::read_sized(r, at)?.map(Element::$ty))
                },
                finish_grid: |r, givens| {
                    Ok(<$module::$ty as ElementType>::finish_grid(r, givens)?.map(Element::$ty))
                },
                check: |all, size| {
                    let mine: Vec<&$module::$ty> =
                        all.iter().filter_map(<$module::$ty as Member>::of).collect();
                    if mine.is_empty() {
                        return Ok(());
                    }
                    <$module::$ty as ElementType>::check(&mine, size)
                },
                write: |all, w| {
                    let mine: Vec<&$module::$ty> =
                        all.iter().filter_map(<$module::$ty as Member>::of).collect();
                    if !mine.is_empty() {
                        <$module::$ty as ElementType>::write(&mine, w);
                    }
                },
                write_key: |key, all, w| {
                    let mine: Vec<&$module::$ty> =
                        all.iter().filter_map(<$module::$ty as Member>::of).collect();
                    if !mine.is_empty() {
                        <$module::$ty as ElementType>::write_key(key, &mine, w);
                    }
                },
                from_fpuzzles: |key, v, n| {
                    Ok(<$module::$ty as ElementType>::from_fpuzzles(key, v, n)?
                        .into_iter()
                        .map(Element::$ty)
                        .collect())
                },
                to_fpuzzles: |all, top| {
                    let mine: Vec<&$module::$ty> =
                        all.iter().filter_map(<$module::$ty as Member>::of).collect();
                    if mine.is_empty() || <$module::$ty as ElementType>::WRITTEN_WITH_GRID {
                        return Ok(());
                    }
                    <$module::$ty as ElementType>::to_fpuzzles(&mine, top)
                },
                from_iss: |name, args, n| {
                    Ok(<$module::$ty as ElementType>::from_iss(name, args, n)?
                        .into_iter()
                        .map(Element::$ty)
                        .collect())
                },
                making: making::making::<$module::$ty>,
            },
        )+];

        impl Element {
            /// The element's name ([`ElementType::NAME`]).
            pub fn name(&self) -> &'static str {
                match self {
                    $(Element::$ty(_) => <$module::$ty as ElementType>::NAME,)+
                }
            }

            /// Its line in [`REGISTRY`]: elements lower and write in this order.
            pub fn rank(&self) -> usize {
                let mut k = 0;
                $(
                    if let Element::$ty(_) = self {
                        return k;
                    }
                    k += 1;
                )+
                k
            }

            /// [`ElementType::lower`].
            pub fn lower(&self, index: usize, l: &mut Lowering) {
                match self {
                    $(Element::$ty(x) => x.lower(index, l),)+
                }
            }

            /// [`ElementType::draw`].
            pub fn draw(&self, layer: Layer, layout: &Layout, s: &mut Svg) {
                match self {
                    $(Element::$ty(x) => x.draw(layer, layout, s),)+
                }
            }

            /// [`ElementType::text`].
            pub fn text(&self, index: usize, t: &mut TextForm) {
                t.begin(self.name(), index);
                match self {
                    $(Element::$ty(x) => {
                        if !<$module::$ty as ElementType>::SHOWN_BY_TEXT_GRID {
                            x.text(index, t);
                        }
                    })+
                }
            }

            /// [`ElementType::corner_clue`].
            pub fn corner_clue(&self) -> Option<((usize, usize), String)> {
                match self {
                    $(Element::$ty(x) => x.corner_clue(),)+
                }
            }

            /// [`ElementType::is_flag`].
            pub fn is_flag(&self) -> bool {
                match self {
                    $(Element::$ty(x) => x.is_flag(),)+
                }
            }

            /// [`ElementType::HAS_CLUE_SQUARES`].
            pub fn has_clue_squares(&self) -> bool {
                match self {
                    $(Element::$ty(_) => <$module::$ty as ElementType>::HAS_CLUE_SQUARES,)+
                }
            }

            /// [`ElementType::holds`].
            pub fn holds(&self, n: usize) -> Option<marks::Holds> {
                match self {
                    $(Element::$ty(x) => x.holds(n),)+
                }
            }

            /// [`ElementType::holds_cell`].
            pub fn holds_cell(&self, row: usize, col: usize) -> bool {
                match self {
                    $(Element::$ty(x) => x.holds_cell(row, col),)+
                }
            }

            /// [`ElementType::max_value`].
            pub fn max_value(&self) -> Option<i64> {
                match self {
                    $(Element::$ty(x) => x.max_value(),)+
                }
            }

            /// [`ElementType::outside`].
            pub fn outside(&self) -> Option<(outside::Square, i8)> {
                match self {
                    $(Element::$ty(x) => x.outside(),)+
                }
            }
        }
    };
}

/// The entry of the element that reads TOML key `key`, if any.
pub fn by_key(key: &str) -> Option<&'static Entry> {
    REGISTRY.iter().find(|e| e.keys.contains(&key))
}

/// The entry of the element that reads f-puzzles key `key`, if any.
pub fn by_fpuzzles_key(key: &str) -> Option<&'static Entry> {
    REGISTRY.iter().find(|e| e.fpuzzles.contains(&key))
}

/// The entry of the element that reads ISS constraint `name`, if any.
pub fn by_iss_name(name: &str) -> Option<&'static Entry> {
    REGISTRY.iter().find(|e| e.iss.contains(&name))
}

/// Why `elements` cannot be on a `size`×`size` grid: each element's
/// [`ElementType::check`], in the registry's order, the first complaint
/// (which names the element). Every puzzle passes it whichever reader made
/// it, so an import is held to what its TOML would be.
pub fn check_all(elements: &[Element], size: usize) -> Result<(), HookError> {
    REGISTRY.iter().try_for_each(|e| (e.check)(elements, size))
}

/// Each of `elements` with its number (from 1) among the instances of its
/// element, as statements and text name it ("thermometer 3").
fn numbered(elements: &[Element]) -> impl Iterator<Item = (usize, &Element)> {
    let mut seen = vec![0usize; REGISTRY.len()];
    elements.iter().map(move |e| {
        let k = &mut seen[e.rank()];
        *k += 1;
        (*k, e)
    })
}

/// Lowers `elements` into `m` in the registry's order: each instance is
/// told its number among the instances of its element.
pub(crate) fn lower_all(elements: &[Element], l: &mut Lowering) {
    for (k, e) in numbered(elements) {
        e.lower(k, l);
    }
}

/// The text form of `elements` ([`ElementType::text`]), each instance
/// told its number among the instances of its element.
pub fn text_all(elements: &[Element]) -> TextForm {
    let mut t = TextForm::default();
    for (k, e) in numbered(elements) {
        e.text(k, &mut t);
    }
    t
}

/// The id of the cell at (`row`, `col`) of a model being built.
pub(crate) fn cell_id(m: &Model, row: usize, col: usize) -> Option<CellId> {
    if m.cells.len() == m.rows * m.cols {
        return (row < m.rows && col < m.cols).then_some(row * m.cols + col);
    }
    m.cell_at(row, col)
}

element_table! {
    latin::Latin,
    boxes::Boxes,
    regions::Regions,
    diagonals::Diagonals,
    cages::Cages,
    kakuro::Kakuro,
    signs::Signs,
    edge_clues::EdgeClues,
    thermometer::Thermometer,
    kropki::Kropki,
    anti_knight::AntiKnight,
    anti_king::AntiKing,
    arrow::Arrow,
    double_arrow::DoubleArrow,
    whispers::Whispers,
    renban::Renban,
    palindrome::Palindrome,
    between_line::BetweenLine,
    region_sum_line::RegionSumLine,
    zipper_line::ZipperLine,
    entropic_line::EntropicLine,
    modular_line::ModularLine,
    nabner::Nabner,
    lockout_line::LockoutLine,
    xv::Xv,
    odd_even::OddEven,
    min_max::MinMax,
    clone::CloneGroup,
    quadruple::Quadruple,
    indexer::Indexer,
    killer_cage::KillerCage,
    diagonal::Diagonal,
    disjoint_groups::DisjointGroups,
    extra_region::ExtraRegion,
    greater_than::GreaterThan,
    little_killer::LittleKiller,
    sandwich::Sandwich,
    x_sum::XSum,
    skyscraper::Skyscraper,
    candidates::Candidates,
}
