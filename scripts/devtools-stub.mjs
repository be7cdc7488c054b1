export default { connectToDevTools() {}, initialize() {} };
