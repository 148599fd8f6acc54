//! Serving the catalogue over TCP.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};

use crate::store::Store;
use crate::Priced as _;

/// Line framing of the wire protocol.
pub mod codec {
    /// Frames a message as one line.
    pub fn encode(msg: &str) -> Vec<u8> {
        let mut out = msg.as_bytes().to_vec();
        out.push(b'\n');
        out
    }

    pub(crate) fn decode(buf: &[u8]) -> Option<&str> {
        let line = buf.split(|b| *b == b'\n').next()?;
        std::str::from_utf8(line).ok()
    }
}

/// Answers price queries for the items of a store.
pub struct Server<'a> {
    store: &'a Store,
    addr: String,
}

impl<'a> Server<'a> {
    pub fn new(store: &'a Store, addr: impl Into<String>) -> Self {
        Server { store, addr: addr.into() }
    }

    /// Serves one connection after another, forever.
    pub fn serve(&self) -> std::io::Result<()> {
        let listener = TcpListener::bind(&self.addr)?;
        for conn in listener.incoming() {
            self.answer(conn?)?;
        }
        unreachable!("incoming never ends")
    }

    fn answer(&self, mut conn: TcpStream) -> std::io::Result<()> {
        let mut buf = [0u8; 512];
        let n = conn.read(&mut buf)?;
        let reply = match codec::decode(&buf[..n]) {
            Some(id) => self.quote(id),
            None => "bad request".to_string(),
        };
        conn.write_all(&codec::encode(&reply))
    }

    fn quote(&self, id: &str) -> String {
        fn missing(id: &str) -> String {
            format!("no item {id}")
        }
        match self.store.get(id) {
            Ok(item) => format!("{:.2}", item.price_of(1)),
            Err(_) => missing(id),
        }
    }
}

/// Asks a server for the price of an item.
pub fn ask(addr: &str, id: &str) -> std::io::Result<String> {
    let mut conn = TcpStream::connect(addr)?;
    conn.write_all(&codec::encode(id))?;
    let mut reply = String::new();
    conn.read_to_string(&mut reply)?;
    Ok(reply)
}
