//! shopctl: adds an item to the shop and prints its value.

use std::process;

use shop::{item, net, open_default, Category};

fn main() {
    let mut store = match open_default() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("shopctl: {e}");
            process::exit(1);
        }
    };
    let hammer = item!("Hammer", 1250).with_category(Category::Tool);
    if let Err(e) = store.add(hammer) {
        eprintln!("shopctl: {e}");
        process::exit(2);
    }
    println!("value: {:.2}", store.value());
    if std::env::args().any(|a| a == "--serve") {
        let server = net::Server::new(&store, "127.0.0.1:7070");
        server.serve().expect("serve");
    }
}
