//! `Position`: a Tori Shogi position from Python: read from SFEN, FEN or `startpos`, its
//! moves, check and mate, diagrams and perft.

use crate::{run_released, value_error};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use toritsume::notation::fen::write_fen;
use toritsume::notation::parse_position;
use toritsume::notation::sfen::write_sfen;
use toritsume::notation::usi::parse_usi_move;
use toritsume::render::svg::{Labels, svg};
use toritsume::render::text::{Style, diagram};
use toritsume::rules::movegen::{generate_checks, generate_legal, is_checkmate};
use toritsume::rules::{MoveList, Position};

/// A Tori Shogi position.
#[pyclass(name = "Position", module = "toritsume", skip_from_py_object)]
#[derive(Clone)]
pub struct PyPosition {
    pos: Position,
}

#[pymethods]
impl PyPosition {
    /// A position from SFEN, FEN or `"startpos"`, each optionally followed by
    /// `moves ...` (USI), the moves played.
    #[new]
    fn new(text: &str) -> PyResult<PyPosition> {
        parse_position(text)
            .map(|pos| PyPosition { pos })
            .map_err(value_error)
    }

    /// The position in SFEN.
    fn sfen(&self) -> String {
        write_sfen(&self.pos)
    }

    /// The position in FEN, as Fairy-Stockfish and pychess-variants write it.
    fn fen(&self) -> String {
        write_fen(&self.pos)
    }

    /// The legal moves (USI), the no-swallow-drop-mate rule applied.
    fn legal_moves(&self) -> Vec<String> {
        let mut list = MoveList::new();
        generate_legal(&self.pos, &mut list);
        list.iter().map(|m| m.usi()).collect()
    }

    /// The legal moves that give check (USI).
    fn checks(&self) -> Vec<String> {
        let mut list = MoveList::new();
        generate_checks(&self.pos, &mut list);
        list.iter().map(|m| m.usi()).collect()
    }

    /// Plays a legal move given in USI; a move that is not legal here is a `ValueError`.
    fn push(&mut self, usi: &str) -> PyResult<()> {
        let m = parse_usi_move(&self.pos, usi).map_err(value_error)?;
        self.pos.do_move(m);
        Ok(())
    }

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool {
        self.pos.in_check()
    }

    /// Whether the side to move is mated.
    fn is_checkmate(&self) -> bool {
        is_checkmate(&self.pos)
    }

    /// The position as an SVG document (English piece letters, or kanji with `kanji=True`).
    #[pyo3(signature = (*, kanji = false))]
    fn svg(&self, kanji: bool) -> String {
        let labels = if kanji {
            Labels::Kanji
        } else {
            Labels::Letters
        };
        svg(&self.pos, labels, None)
    }

    /// The number of leaf positions `depth` plies on (perft).
    fn perft(&self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        if depth == 0 {
            return Ok(1);
        }
        let pos = self.pos.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let raised = Arc::clone(&stop);
        // On Ctrl-C the count gives up (`None`) and the interrupt is raised instead.
        let n = run_released(py, &stop, move || {
            toritsume::rules::perft::perft_divide_until(&pos, depth, &raised)
                .map(|d| d.iter().map(|&(_, n)| n).sum::<u64>())
        })?;
        n.ok_or_else(|| PyRuntimeError::new_err("the count was stopped"))
    }

    /// The side to move: `"black"` (the attacker of a problem) or `"white"`.
    #[getter]
    fn turn(&self) -> String {
        self.pos.side_to_move().name().to_lowercase()
    }

    /// A copy of the position.
    fn copy(&self) -> PyPosition {
        self.clone()
    }

    fn __str__(&self) -> String {
        diagram(&self.pos, Style::Ascii)
    }

    fn __repr__(&self) -> String {
        format!("Position({:?})", write_sfen(&self.pos))
    }

    fn __eq__(&self, other: &PyPosition) -> bool {
        write_sfen(&self.pos) == write_sfen(&other.pos)
    }

    fn __copy__(&self) -> PyPosition {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyPosition {
        self.clone()
    }

    /// Pickled as its SFEN.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let cls = slf.get_type().into_any();
        Ok((cls, (write_sfen(&slf.borrow().pos),)))
    }
}
