const string DEFAULT_TITLE = "untitled"
const i32 DEFAULT_PAGES = 10
const list<string> DEFAULT_TAGS = ["new"]
typedef string Title
const Title ALIASED_TITLE = "aliased"
