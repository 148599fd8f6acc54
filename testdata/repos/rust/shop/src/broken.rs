/// Parsed despite the error below.
pub fn fine() -> u32 {
    1
}

pub fn broken(x: u32 {
    let y = fine();
    y + x
}

pub fn after() -> u32 {
    fine()
}
