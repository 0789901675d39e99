//! What a puzzle's elements put on a text grid (`solve`'s grids): marks
//! where a terminal can show them (a kropki dot or an XV letter on the
//! border between two cells, a thermometer's bulb beside its digit), and
//! a line under the grid for everything else, so that no element is left
//! out unsaid. Each element says its own text form
//! ([`crate::elements::ElementType::text`]); the grid drawers only place it.

use crate::model::rc;

/// Where a mark goes on a text grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    /// On the border between two orthogonal neighbours.
    Between([(usize, usize); 2]),
    /// Beside a cell's digit.
    Cell((usize, usize)),
}

/// One mark: where, its character on a terminal and in ASCII, and the
/// element instance it belongs to ("kropki 3"), for the line that says it
/// where it cannot be placed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Mark {
    pub(crate) place: Place,
    pub(crate) glyph: char,
    pub(crate) ascii: char,
    owner: String,
}

impl Mark {
    /// The line under the grid that says the mark where the grid cannot
    /// show it.
    pub(crate) fn note(&self) -> String {
        match self.place {
            Place::Between([a, b]) => format!(
                "{}: {} between {} and {}",
                self.owner,
                self.glyph,
                rc(a.0, a.1),
                rc(b.0, b.1)
            ),
            Place::Cell(a) => format!("{}: {} at {}", self.owner, self.glyph, rc(a.0, a.1)),
        }
    }
}

/// A puzzle's text form, collected from its elements.
#[derive(Debug, Default)]
pub struct TextForm {
    pub(crate) marks: Vec<Mark>,
    pub(crate) notes: Vec<String>,
    /// The instance being asked ("kropki 3").
    owner: String,
}

impl TextForm {
    /// Starts the text form of the `index`-th (from 1) instance of
    /// element `name`.
    pub(crate) fn begin(&mut self, name: &str, index: usize) {
        self.owner = format!("{name} {index}");
    }

    /// A mark on the border between two orthogonal neighbours: `glyph` on
    /// a terminal, `ascii` in ASCII grids.
    pub fn between(&mut self, cells: [(usize, usize); 2], glyph: char, ascii: char) {
        self.mark(Place::Between(cells), glyph, ascii);
    }

    /// A mark just left of a cell's digit.
    pub fn cell(&mut self, cell: (usize, usize), glyph: char, ascii: char) {
        self.mark(Place::Cell(cell), glyph, ascii);
    }

    /// A line under the grid.
    pub fn note(&mut self, line: impl Into<String>) {
        self.notes.push(line.into());
    }

    fn mark(&mut self, place: Place, glyph: char, ascii: char) {
        self.marks.push(Mark {
            place,
            glyph,
            ascii,
            owner: self.owner.clone(),
        });
    }
}
