//! Times the first use of the material table.
fn main() {
    let t = std::time::Instant::now();
    tusk_eval::material::init();
    println!("material::init took {:?}", t.elapsed());
}
