use std::fmt;
use std::io;

/// Everything that can go wrong in the shop.
#[derive(Debug)]
pub enum Error {
    /// The store is full.
    Full(usize),
    /// No item has that id.
    NotFound { id: String },
    Io(io::Error),
}

/// The shop's result type.
pub type Result<T> = std::result::Result<T, Error>;

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Full(n) => write!(f, "store full ({n} items)"),
            Error::NotFound { id } => write!(f, "no item {id}"),
            Error::Io(e) => write!(f, "io: {e}"),
        }
    }
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Self {
        Error::Io(e)
    }
}
