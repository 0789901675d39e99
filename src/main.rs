fn main() {
    std::process::exit(smtgrid::cli::main());
}
