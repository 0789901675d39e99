//! `onehot` (being written).
use super::Body;
use crate::model::Model;
pub(super) fn encode(model: &Model, _opts: &super::Options) -> Body {
    super::lia::encode(model)
}
