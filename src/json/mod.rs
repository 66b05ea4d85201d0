//! JSON: the validating scanner, the walker over validated text, and the
//! borrowed string and value types.

pub(crate) mod find;
pub(crate) mod scan;
pub(crate) mod shape;
pub(crate) mod skip;
pub(crate) mod str;
