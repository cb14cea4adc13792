//! What a person looks at: text diagrams ([`text`]), SVG boards ([`svg`]) and the HTML
//! puzzle book of a problem set ([`book`]). Rendering only writes; reading positions and
//! moves is [`crate::notation`]'s.

pub mod book;
pub mod svg;
pub mod text;
pub mod train;
