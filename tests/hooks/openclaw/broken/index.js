// An entry that fails to load: a syntax error.
module.exports = {
